import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  routeIntentParamsSchema,
  routeIntentQuerySchema,
  routeIntentResponseSchema,
  routeReceiptParamsSchema,
  routeReceiptRequestSchema,
  routeReceiptResponseSchema,
} from '@quicklinks/core/api/route-intent'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  type ReceiptOutcome,
  readReceiptOutcome,
  recordRouteReceipt,
} from '../../services/payments/route/record-route-receipt.ts'
import { getPayerPaymentRecordOrThrow } from '../../services/payments/tracking/list-transaction-records.ts'

/** How long the receipt call may follow a payment before it answers with the status so far. */
const firstLookMs = 3_000
const lookAgainMs = 100

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))])
  clearTimeout(timer)
}

/** Route intents under /api/route-intent: the payer's wallet reports what it sent and follows it. */
export const routeIntentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/route-intent/:intentId',
    {
      schema: {
        summary:
          'The payment of a route intent as its payer sees it (public): the record follows the payer’s transaction only once the tracker matched it; 404 for another wallet’s intent or before a receipt',
        tags: ['routing'],
        params: routeIntentParamsSchema,
        querystring: routeIntentQuerySchema,
        response: { 200: routeIntentResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema },
      },
    },
    // GET /api/route-intent/{intentId}?payer&txHash: the payment's record, polled by the pay modal.
    async (request) => {
      // Explorer links are a nicety: a catalogue that cannot load leaves them to the dev explorer or null.
      const chains = await app.routingProvider.chains().catch(() => [])
      const record = await getPayerPaymentRecordOrThrow(app.db, request.params.intentId, request.query, {
        explorerBaseUrls: new Map(chains.map((chain) => [chain.chainId, chain.blockExplorerUrl])),
        devExplorerOrigin: app.config.devMode ? app.config.publicOrigin : null,
        provider: app.routingProvider,
      })
      return { data: record }
    },
  )

  app.post(
    '/route-intent/:intentId/receipt',
    {
      schema: {
        summary:
          'Posts the transaction that pays a route intent and tracks it at once (public). The hash is checked on chain: only the payer’s transaction of the route is tracked; 422 names why another is not',
        tags: ['routing'],
        params: routeReceiptParamsSchema,
        body: routeReceiptRequestSchema,
        response: {
          202: routeReceiptResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
    },
    // POST /api/route-intent/{intentId}/receipt: 202 with the status after a first look on chain;
    // 422 when the hash is not the payer's transaction of this route; 404 unknown intent; 409 already paid by another.
    async (request, reply) => {
      const receipt = await recordRouteReceipt(app.db, request.params.intentId, request.body.txHash, {
        requestId: request.id,
      })
      const deadline = Date.now() + firstLookMs
      let outcome: ReceiptOutcome = { ...receipt, isSource: false }
      // Look at once; while the hash is the payment's and it is still moving (a relayer filling it
      // on the devnet), look again briefly, so the pay modal's first poll can already see the end.
      for (;;) {
        await withTimeout(app.paymentTracker.trackNow(receipt.intentId), deadline - Date.now())
        outcome = await readReceiptOutcome(app.db, receipt.intentId, receipt.txHash)
        // Only a quick provider (our own relayer) finishes within seconds; Squid's bridges take minutes.
        const isMoving =
          app.routingProvider.isQuick === true &&
          outcome.isSource &&
          (outcome.status === 'submitted' || outcome.status === 'bridging')
        if (!isMoving || Date.now() + lookAgainMs >= deadline) break
        await new Promise((resolve) => setTimeout(resolve, lookAgainMs))
      }
      return reply.code(202).send({
        data: { intentId: outcome.intentId, txHash: outcome.txHash, status: outcome.status },
      })
    },
  )
}
