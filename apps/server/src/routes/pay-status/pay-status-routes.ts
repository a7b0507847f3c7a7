import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { payStatusParamsSchema, payStatusResponseSchema } from '@quicklinks/core/api/pay-status'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { readPayStatusOrThrow } from '../../services/payments/status/read-pay-status.ts'

/** The payer's status page's read under /api/pay/status (docs/api.md#pay-status). */
export const payStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/pay/status/:intentId',
    {
      schema: {
        summary:
          'One payment’s live state for its payer (public; the 32-byte random intent id is the capability): chains, tokens, amounts, hashes, the link’s name, times, and the refund call of an unfilled cross-chain deposit',
        tags: ['pay'],
        params: payStatusParamsSchema,
        response: { 200: payStatusResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema },
      },
      // The status page polls every few seconds; each look may read two chains.
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
    },
    // GET /api/pay/status/{intentId}: 200 with the payment's status; 404 unknown or not yet reported.
    async (request) => {
      // Explorer links are a nicety: a catalogue that cannot load leaves them to the dev explorer or null.
      const chains = await app.routingProvider.chains().catch(() => [])
      const status = await readPayStatusOrThrow(
        {
          db: app.db,
          explorerBaseUrls: new Map(chains.map((chain) => [chain.chainId, chain.blockExplorerUrl])),
          devExplorerOrigin: app.config.devMode ? app.config.publicOrigin : null,
          provider: app.routingProvider,
          logger: request.log,
        },
        request.params.intentId,
      )
      return { data: status }
    },
  )
}
