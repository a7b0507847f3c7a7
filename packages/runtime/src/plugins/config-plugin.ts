import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { ServerConfig } from '../env.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The parsed configuration; nothing reads process.env after start-up. */
    config: ServerConfig
  }
}

const plugin: FastifyPluginAsync<{ config: ServerConfig }> = async (app, options) => {
  app.decorate('config', options.config)
}

/** Decorates `app.config` with the configuration `buildApp` received. */
export const configPlugin = fp(plugin, { name: 'config', fastify: '5.x' })
