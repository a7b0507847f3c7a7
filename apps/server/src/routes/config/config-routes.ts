import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

/** What the web needs to know about this server before it calls anything else. */
export const publicConfigSchema = z.object({
  routingProvider: z
    .enum(['local', 'squid'])
    .describe(
      'The configured routing provider (ROUTING_PROVIDER): call /api/{routingProvider}/chains, /tokens, /route',
    ),
})

export type PublicConfig = z.infer<typeof publicConfigSchema>

// A restart is the only way the answer changes; a minute of caching keeps each page load to one call.
const cacheControl = 'public, max-age=60'

/** The server's public settings: GET /api/config. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/config',
    {
      schema: {
        summary: 'Public settings the web app reads once per page load: the routing provider (public)',
        tags: ['config'],
        response: { 200: z.object({ data: publicConfigSchema }) },
      },
    },
    // GET /api/config: the routing provider's name, so the web never builds it into its bundle.
    async (_request, reply) => {
      reply.header('cache-control', cacheControl)
      const data: PublicConfig = { routingProvider: app.config.routingProvider }
      return { data }
    },
  )
}
