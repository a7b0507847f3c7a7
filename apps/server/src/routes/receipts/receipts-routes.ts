import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { rpcRelayRequestSchema, rpcRelayResponseSchema } from '@quicklinks/core/api/json-rpc-relay'
import {
  receiptEmailRequestSchema,
  receiptEmailResponseSchema,
  receiptParamsSchema,
  receiptResponseSchema,
} from '@quicklinks/core/api/receipts'
import { AppError } from '@quicklinks/core/app-error'
import { createRateLimitHook, getClientIpKey } from '@quicklinks/runtime/plugins/rate-limit-plugin'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import * as z from 'zod/mini'
import { getConfiguredRpcUrlOrThrow } from '../../services/chains/find-configured-rpc-url.ts'
import { relayJsonRpc } from '../../services/chains/relay-json-rpc.ts'
import {
  buildReceiptMessageOrThrow,
  buildSignedReceiptOrThrow,
} from '../../services/receipts/build-signed-receipt.ts'
import {
  getReceiptIntentOrThrow,
  insertPayerReceiptEmail,
  type PayerReceiptEmailLimits,
} from '../../services/receipts/receipt-emails-repository.ts'
import { getReceiptSignerOrThrow } from './get-receipt-signer-or-throw.ts'

/** The payer's form: at most this many addresses per payment, and receipts per address per day. */
export const payerReceiptEmailLimits: PayerReceiptEmailLimits = { perIntent: 3, perAddressPerDay: 5 }

/** What the receipt page's chain check may ask a node: reads of one transaction and a balance. */
const receiptRpcMethods = new Set([
  'eth_chainId',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getBalance',
])

const receiptRpcParamsSchema = z.object({ chainId: z.coerce.number().check(z.int(), z.positive()) })

/** Receipts under /api/receipts (docs/api.md#receipts): public, read by id (32 random bytes). */
export const receiptsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/receipts/:intentId',
    {
      schema: {
        summary:
          "A verified payment's receipt, signed by the instance's receipt key: viem's verifyTypedData arguments (public)",
        tags: ['receipts'],
        params: receiptParamsSchema,
        response: {
          200: receiptResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // GET /api/receipts/{intentId}: 200 for a final success, 409 not verified yet, 404 unknown, 503 no key.
    async (request, reply) => {
      const signer = getReceiptSignerOrThrow(app.receiptSigner)
      const intent = await getReceiptIntentOrThrow(app.db, request.params.intentId)
      const receipt = await buildSignedReceiptOrThrow(intent, signer)
      // A final payment's receipt never changes (issuedAt is when it became final): caches may keep it.
      void reply.header('cache-control', 'public, max-age=3600')
      return { data: receipt }
    },
  )

  const emailRateLimit = createRateLimitHook(app, [
    { name: 'receipt-email-ip', max: 10, timeWindow: 60 * 60_000, getKey: getClientIpKey },
    {
      name: 'receipt-email-intent',
      max: 6,
      timeWindow: 60 * 60_000,
      getKey: (request) => (request.params as { intentId?: string }).intentId?.toLowerCase(),
    },
  ])

  app.post(
    '/receipts/:intentId/email',
    {
      schema: {
        summary:
          "Sends one copy of a verified payment's receipt to an address (public form, rate-limited; at most 3 addresses per payment)",
        tags: ['receipts'],
        params: receiptParamsSchema,
        body: receiptEmailRequestSchema,
        response: {
          202: receiptEmailResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      preHandler: emailRateLimit,
    },
    // POST /api/receipts/{intentId}/email: 202 queued (once per address); 409 not verified; 429 a limit.
    async (request, reply) => {
      const intent = await getReceiptIntentOrThrow(app.db, request.params.intentId)
      buildReceiptMessageOrThrow(intent)
      await insertPayerReceiptEmail(
        app.db,
        {
          intentId: intent.id,
          email: request.body.email.toLowerCase(),
          requestedBy: getClientIpKey(request),
          nowMs: Date.now(),
        },
        payerReceiptEmailLimits,
      )
      return reply.code(202).send({ data: { queued: true } })
    },
  )

  app.post(
    '/receipts/rpc/:chainId',
    {
      schema: {
        summary:
          "The receipt page's read-only JSON-RPC to a configured chain (public): a transaction, its receipt, a balance",
        tags: ['receipts'],
        params: receiptRpcParamsSchema,
        body: rpcRelayRequestSchema,
        response: {
          200: rpcRelayResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
    },
    // POST /api/receipts/rpc/{chainId}: the node's answer to one of four read methods.
    async (request) => {
      if (!receiptRpcMethods.has(request.body.method)) {
        throw new AppError('VALIDATION_FAILED', {
          field: 'method',
          message: `Receipt RPC refused method ${request.body.method}`,
          userMessage: `The method ${request.body.method} is not relayed here.`,
        })
      }
      const rpcUrl = await getConfiguredRpcUrlOrThrow(app.config, request.params.chainId)
      return relayJsonRpc({ rpcUrl, senderAddress: '', request: request.body })
    },
  )
}
