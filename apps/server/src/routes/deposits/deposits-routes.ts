import {
  createDepositRequestSchema,
  depositIdParamsSchema,
  depositLinkParamsSchema,
  depositResponseSchema,
  refundAddressRequestSchema,
} from '@quicklinks/core/api/deposits'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPublicLinkOrThrow } from '../../services/links/get-public-link-or-throw.ts'
import { changeRefundAddress } from '../../services/payments/deposits/change-refund-address.ts'
import { createDeposit } from '../../services/payments/deposits/create-deposit.ts'
import { readDepositSetupOrThrow } from '../../services/payments/deposits/get-deposit-setup.ts'
import { readDepositOrThrow } from '../../services/payments/deposits/read-deposit.ts'

/** Deposit addresses for payers without a dapp browser (docs/api.md#deposits): public, rate limited. */
export const depositsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/pay/links/:slug/deposits',
    {
      schema: {
        summary: 'A deposit address for an enabled link (public): one address on every chain, EIP-681 URIs',
        tags: ['pay'],
        params: depositLinkParamsSchema,
        body: createDepositRequestSchema,
        response: {
          201: depositResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      // Each deposit is a row the watcher scans until it expires: a payer needs a few, not hundreds.
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
    },
    // POST /api/pay/links/{slug}/deposits: makes a deposit address for the link (or one of its invoices).
    async (request, reply) => {
      const setup = await readDepositSetupOrThrow(app.config)
      const link = await getPublicLinkOrThrow(app.db, app.readCaches.publicLinks, request.params.slug)
      const data = await createDeposit(
        { db: app.db, provider: app.routingProvider, setup, nowMs: Date.now() },
        link,
        request.body,
      )
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/pay/deposits/:id',
    {
      schema: {
        summary: 'A deposit, its transfers and what became of each (public; the id is the key)',
        tags: ['pay'],
        params: depositIdParamsSchema,
        response: { 200: depositResponseSchema, 404: errorResponseSchema, 503: errorResponseSchema },
      },
    },
    // GET /api/pay/deposits/{id}: the deposit's state and the payments into it.
    async (request) => {
      const setup = await readDepositSetupOrThrow(app.config)
      const context = { db: app.db, provider: app.routingProvider, setup, nowMs: Date.now() }
      return { data: await readDepositOrThrow(context, request.params.id) }
    },
  )

  app.post(
    '/pay/deposits/:id/refund-address',
    {
      schema: {
        summary:
          'The sender of a transfer names another refund address with a signed message (public; docs/decisions/0032)',
        tags: ['pay'],
        params: depositIdParamsSchema,
        body: refundAddressRequestSchema,
        response: {
          200: depositResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      // Each call verifies a signature on a chain (an eth_call for smart wallets): a payer needs one or two.
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
    },
    // POST /api/pay/deposits/{id}/refund-address: the signer's transfers are refunded to refundAddress.
    async (request) => {
      const setup = await readDepositSetupOrThrow(app.config)
      const nowMs = Date.now()
      await changeRefundAddress({ db: app.db, setup, nowMs }, request.params.id, request.body)
      const context = { db: app.db, provider: app.routingProvider, setup, nowMs }
      return { data: await readDepositOrThrow(context, request.params.id) }
    },
  )
}
