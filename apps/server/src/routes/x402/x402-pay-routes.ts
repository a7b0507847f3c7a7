import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  buildX402PayPath,
  x402Headers,
  x402PaidResponseSchema,
  x402PayInvoiceParamsSchema,
  x402PaymentRequiredSchema,
  x402PayParamsSchema,
  x402PayQuerySchema,
  x402Version,
} from '@quicklinks/core/api/x402'
import { AppError } from '@quicklinks/core/app-error'
import { encodePaymentRequiredHeader } from '@x402/core/http'
import type { PaymentRequired } from '@x402/core/types'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { readDepositSetup } from '../../services/payments/deposits/get-deposit-setup.ts'
import { readPayStatusOrThrow } from '../../services/payments/status/read-pay-status.ts'
import { buildSignedReceiptOrThrow } from '../../services/receipts/build-signed-receipt.ts'
import { getReceiptIntentOrThrow } from '../../services/receipts/receipt-emails-repository.ts'
import { formatTokenAmount } from '../../services/tokens/parse-token-amount.ts'
import { createX402ResourceServer } from '../../services/x402/pay/create-x402-resource-server.ts'
import { getX402Offer } from '../../services/x402/pay/get-x402-offer.ts'
import { payX402, type X402Answer } from '../../services/x402/pay/pay-x402.ts'
import { readX402ResourceOrThrow, type X402Resource } from '../../services/x402/pay/read-x402-resource.ts'
import { createX402OfferIssuer } from '../../services/x402/pay/x402-offer-receipts.ts'
import { readX402SetupOrThrow } from '../../services/x402/read-x402-setup.ts'

const responses = {
  200: x402PaidResponseSchema,
  402: x402PaymentRequiredSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
  503: errorResponseSchema,
}

/**
 * Every enabled link (and invoice) as an x402 v2 resource (docs/decisions/0031, docs/api.md#x402):
 * at the root beside /api, no cookie, for software that pays. Without PAYMENT-SIGNATURE: 402 with
 * PAYMENT-REQUIRED; with one: verified, settled, 200 with PAYMENT-RESPONSE.
 */
export const x402PayRoutes: FastifyPluginAsyncZod = async (app) => {
  // Agents poll the 402 and pay in bursts; each paid request waits on chain, each 402 may quote.
  const config = { rateLimit: { max: 600, timeWindow: 60_000 } }
  app.get(
    '/x402/pay/:slug',
    {
      schema: {
        summary:
          'A link as an x402 resource (public): 402 with PAYMENT-REQUIRED, or paid with PAYMENT-SIGNATURE',
        tags: ['x402'],
        params: x402PayParamsSchema,
        querystring: x402PayQuerySchema,
        response: responses,
      },
      config,
    },
    // GET /x402/pay/{slug}[?amount=]: 402 with the offer, or 200 once paid; 404 unknown link, 422 bad amount.
    async (request, reply) =>
      answer(app, request, reply, { slug: request.params.slug, amount: request.query.amount }),
  )
  app.get(
    '/x402/pay/:slug/:invoiceId',
    {
      schema: {
        summary: 'An invoice as an x402 resource (public): its remaining amount, paid like the link',
        tags: ['x402'],
        params: x402PayInvoiceParamsSchema,
        response: responses,
      },
      config,
    },
    // GET /x402/pay/{slug}/{invoiceId}: as the link's, for the invoice's remaining amount; 422 once paid.
    async (request, reply) => answer(app, request, reply, request.params),
  )
}

async function answer(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  params: { slug: string; invoiceId?: string; amount?: string | undefined },
) {
  const nowMs = Date.now()
  const x402 = await readX402SetupOrThrow(app.config)
  const deposits = await readDepositSetup(app.config)
  const db = app.db
  const resource = await readX402ResourceOrThrow(
    { db, publicLinks: app.readCaches.publicLinks, provider: app.routingProvider, nowMs },
    params,
  )
  const resourceUrl = buildResourceUrl(app.config.publicOrigin, resource, params)
  const issuer = app.receiptSigner === null ? null : createX402OfferIssuer(app.receiptSigner)
  const paymentRequired = async (error: string): Promise<X402Answer> => {
    const offer = await getX402Offer(
      {
        db,
        provider: app.routingProvider,
        x402,
        deposits,
        receiptSigner: app.receiptSigner,
        logger: request.log,
        nowMs,
      },
      resource,
      resourceUrl,
    )
    const body: PaymentRequired = {
      x402Version,
      error,
      resource: { url: resourceUrl, description: `Pay ${resource.link.alias}`, mimeType: 'application/json' },
      accepts: offer.requirements,
      extensions: offer.extensions,
    }
    return {
      status: 402,
      headers: { [x402Headers.paymentRequired]: encodePaymentRequiredHeader(body) },
      body,
    }
  }
  const header = request.headers[x402Headers.paymentSignature.toLowerCase()]
  const result =
    typeof header === 'string' && header !== ''
      ? await payX402(
          {
            db,
            provider: app.routingProvider,
            server: createX402ResourceServer(await app.x402.facilitatorClient(), x402.chains),
            deposits,
            requestId: request.id,
            trackNow: (intentId) => app.paymentTracker.trackNow(intentId),
            wakeDeposits: (chainId) => {
              if (app.hasDecorator('wakeWorker')) app.wakeWorker('deposits', String(chainId))
            },
            readPayment: (intentId) => readPayment(app, request, intentId),
            readReceipt: (intentId) => readReceipt(app, intentId),
            issuer,
            paymentRequired,
            nowMs,
          },
          resource,
          resourceUrl,
          header,
        )
      : await paymentRequired('Payment required')
  // An offer is per payer and moment: no shared cache keeps it.
  void reply.header('cache-control', 'no-store')
  for (const [name, value] of Object.entries(result.headers)) void reply.header(name, value)
  return reply.code(result.status as 200 | 402).send(result.body as never)
}

/** The resource's URL: the link's (or invoice's), with `?amount=` only where the payer chose it. */
function buildResourceUrl(
  origin: string,
  resource: X402Resource,
  params: { slug: string; invoiceId?: string },
): string {
  const url = `${origin.replace(/\/$/, '')}${buildX402PayPath(params.slug, params.invoiceId)}`
  if (resource.invoiceId !== null || resource.link.amount) return url
  return `${url}?amount=${formatTokenAmount(resource.amountUnits, resource.linkToken.decimals)}`
}

async function readPayment(app: FastifyInstance, request: FastifyRequest, intentId: string) {
  try {
    return await readPayStatusOrThrow(
      {
        db: app.db,
        explorerBaseUrls: new Map(),
        devExplorerOrigin: app.config.devMode ? app.config.publicOrigin : null,
        provider: app.routingProvider,
        logger: request.log,
      },
      intentId,
    )
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null
    throw error
  }
}

async function readReceipt(app: FastifyInstance, intentId: string) {
  if (app.receiptSigner === null) return null
  try {
    return await buildSignedReceiptOrThrow(await getReceiptIntentOrThrow(app.db, intentId), app.receiptSigner)
  } catch (error) {
    // Not final yet: the receipt is at GET /api/receipts/{intentId} once it is.
    if (error instanceof AppError && error.code === 'CONFLICT') return null
    throw error
  }
}
