import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ensureCsrfCookie } from '../plugins/csrf-plugin.ts'

const healthResponseSchema = z.object({ status: z.literal('ok') })

/** GET /health: liveness, and the CSRF cookie the web app echoes on every write. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness; sets the csrf_token cookie (kept if already present)',
        tags: ['health'],
        response: { 200: healthResponseSchema },
      },
    },
    // GET /health: report liveness and hand out the CSRF cookie.
    async (request, reply) => {
      ensureCsrfCookie(request, reply)
      return { status: 'ok' as const }
    },
  )
}
