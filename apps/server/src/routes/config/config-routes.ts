import { type PublicConfig, publicConfigResponseSchema } from '@quicklinks/core/api/config'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

// A restart is the only way the answer changes; a minute of caching keeps each page load to one call.
const cacheControl = 'public, max-age=60'

/** The server's public settings: GET /api/config. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/config',
    {
      schema: {
        summary:
          'Public settings the web app reads once per page load: the routing provider and the WalletConnect project id (public)',
        tags: ['config'],
        response: { 200: publicConfigResponseSchema },
      },
    },
    // GET /api/config: the routing provider's name and WalletConnect's project id, so the web builds neither in.
    async (_request, reply) => {
      reply.header('cache-control', cacheControl)
      const data: PublicConfig = {
        routingProvider: app.config.routingProvider,
        walletConnectProjectId: app.config.walletConnectProjectId ?? null,
      }
      return { data }
    },
  )
}
