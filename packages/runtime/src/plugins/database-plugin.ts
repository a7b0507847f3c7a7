import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { Database, DatabaseClient } from '../db/create-database-client.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The Drizzle handle; services take it as an argument. */
    db: Database
  }
}

export type DatabasePluginOptions = {
  client: DatabaseClient
  /** Close the client when the app closes (true when the app opened it itself). */
  isOwned: boolean
}

const plugin: FastifyPluginAsync<DatabasePluginOptions> = async (app, options) => {
  app.decorate('db', options.client.db)
  if (options.isOwned) app.addHook('onClose', () => options.client.close())
}

/** Decorates `app.db` with an already open (and migrated) database. */
export const databasePlugin = fp(plugin, { name: 'database', fastify: '5.x' })
