import { Readable } from 'node:stream'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  paymentListQuerySchema,
  paymentListResponseSchema,
  paymentPageDefaultLimit,
} from '@quicklinks/core/api/payments'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createPaymentReadContext } from '../../services/payments/history/create-payment-read-context.ts'
import { listPaymentPage, type PaymentReadContext } from '../../services/payments/history/list-payments.ts'
import { readPaymentFiltersOrThrow } from '../../services/payments/history/payment-filters.ts'
import { streamPaymentsCsv } from '../../services/payments/history/stream-payments-csv.ts'
import { sumPaymentTotals } from '../../services/payments/history/sum-payment-totals.ts'

/** The payments' names for this app (services/payments/history/create-payment-read-context.ts). */
function buildReadContext(app: FastifyInstance): Promise<PaymentReadContext> {
  return createPaymentReadContext({
    provider: app.routingProvider,
    db: app.db,
    devMode: app.config.devMode,
    publicOrigin: app.config.publicOrigin,
  })
}

/**
 * The payee's payment history under /api/payments (docs/api.md#payments-list, #payments-export):
 * the verified payments into the caller's links, as pages or as a CSV file. Registered in the
 * signed-in scope (401 when signed out); counted by the global per-client rate limit.
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/payments',
    {
      config: { apiKeyScopes: ['payments:read'] },
      schema: {
        summary:
          "The signed-in user's payments, newest first: filters, cursor pages and totals per destination token; 404 for another user's link id",
        tags: ['payments'],
        querystring: paymentListQuerySchema,
        response: {
          200: paymentListResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
    },
    // GET /api/payments: one page of the caller's payments, and the totals of all that match.
    async (request) => {
      const { cursor, limit, ...query } = request.query
      const filters = await readPaymentFiltersOrThrow(app.db, request.signedInUser.id, query)
      const context = await buildReadContext(app)
      const [page, totals] = await Promise.all([
        listPaymentPage(app.db, filters, { cursor, limit: limit ?? paymentPageDefaultLimit }, context),
        sumPaymentTotals(app.db, filters, context.tokens),
      ])
      return { data: page.payments, nextCursor: page.nextCursor, totals }
    },
  )

  app.get(
    '/payments/export.csv',
    {
      config: { apiKeyScopes: ['payments:read'] },
      schema: {
        summary:
          "The signed-in user's payments as a CSV file (the same filters; cursor and limit ignored), streamed page by page",
        tags: ['payments'],
        querystring: paymentListQuerySchema,
        produces: ['text/csv'],
        response: { 401: errorResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema },
      },
    },
    // GET /api/payments/export.csv: every matching payment, one CSV line each (docs/api.md#payments-export).
    async (request, reply) => {
      const { cursor: _cursor, limit: _limit, ...query } = request.query
      const filters = await readPaymentFiltersOrThrow(app.db, request.signedInUser.id, query)
      const context = await buildReadContext(app)
      const day = new Date().toISOString().slice(0, 10)
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename=payments-${day}.csv`)
        .header('cache-control', 'no-store')
      // Fastify pipes a stream as it is (no serializer), under back-pressure: a page is read only
      // when the client has taken the previous one.
      const body = Readable.from(streamPaymentsCsv(app.db, filters, context), { objectMode: false })
      const untyped: FastifyReply = reply
      return untyped.send(body)
    },
  )
}
