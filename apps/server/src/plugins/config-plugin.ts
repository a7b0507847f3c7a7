import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { ServerConfig } from '../config/server-env.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The app server's parsed configuration (the host's, the signer's and its own sections);
     * nothing reads process.env after start-up. The standalone signer has no `app.config`: its
     * plugins take what they need as options (docs/decisions/0023).
     */
    config: ServerConfig
  }
}

const plugin: FastifyPluginAsync<{ config: ServerConfig }> = async (app, options) => {
  app.decorate('config', options.config)
}

/** Decorates `app.config` with the configuration `buildApp` received. */
export const configPlugin = fp(plugin, { name: 'config', fastify: '5.x' })
