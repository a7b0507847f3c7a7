import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { subscribeToCacheChanges } from '../services/cache/cache-change-feed.ts'
import { applyCacheChanges, createReadCaches, type ReadCaches } from '../services/cache/read-caches.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The in-memory read caches; writes invalidate them (here and, through NOTIFY, elsewhere). */
    readCaches: ReadCaches
  }
}

export type ReadCachesPluginOptions = {
  /** The app's database: its NOTIFY feed carries other instances' writes. */
  client: DatabaseClient
}

const plugin: FastifyPluginAsync<ReadCachesPluginOptions> = async (app, options) => {
  const caches = createReadCaches()
  const setEnabled = (isEnabled: boolean) => {
    for (const cache of Object.values(caches)) cache.setEnabled(isEnabled)
  }
  // Off until the change feed listens: before that, another instance's write would go unseen.
  setEnabled(false)
  app.decorate('readCaches', caches)
  const unsubscribe = await subscribeToCacheChanges(
    options.client,
    { onChange: (changes) => applyCacheChanges(caches, changes), onStatus: setEnabled },
    app.log,
  )
  // Before the database closes (the database plugin's onClose hook runs after this one's preClose).
  app.addHook('preClose', async () => {
    setEnabled(false)
    await unsubscribe()
  })
}

/**
 * Decorates `app.readCaches`: in-memory caches of the hot reads (public links, an owner's link
 * list, session lookups), kept honest across instances by the database's NOTIFY feed of the
 * writes that change them (docs/decisions/0013). While the feed is down, every read goes to SQL.
 */
export const readCachesPlugin = fp(plugin, {
  name: 'read-caches',
  fastify: '5.x',
  dependencies: ['database'],
})
