import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { recordRouteReceipt } from '../../services/route-intents/record-route-receipt.ts'
import { errorResponseSchema } from '../error-response-schema.ts'

/** Route intents under /api/route-intent: the payer's wallet reports what it sent. */
export const routeIntentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/route-intent/:intentId/receipt',
    {
      schema: {
        summary: 'Records the transaction that pays a route intent and starts tracking it (public)',
        tags: ['routing'],
        params: z.object({ intentId: z.string().max(80).describe('The intentId the route answered') }),
        body: z.object({ txHash: z.unknown().describe('The payment transaction hash (0x + 64 hex)') }),
        response: {
          202: z.object({
            data: z.object({
              intentId: z.string(),
              txHash: z.string(),
              status: z.enum(['submitted', 'bridging', 'success', 'failed']),
            }),
          }),
          404: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
    },
    // POST /api/route-intent/{intentId}/receipt: 202 and tracking starts; 404 unknown intent; 409 another hash.
    async (request, reply) => {
      const receipt = await recordRouteReceipt(app.db, request.params.intentId, request.body.txHash)
      return reply.code(202).send({ data: receipt })
    },
  )
}
