import { randomBytes } from 'node:crypto'
import type { RouteRequest as RouteRequestBody } from '@quicklinks/core/api/route-request'
import type { RouteResult } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { links } from '../../../db/schema.ts'
import { assertRoutePaysInvoice } from './assert-route-pays-invoice.ts'
import { quoteRoute } from './quote-route.ts'
import { insertRouteIntent } from './route-intents-repository.ts'
import {
  isNativeTokenAddress,
  type RouteAction,
  type RoutingProvider,
  type TransactionRequest,
} from './routing-provider.ts'

function invalid(field: string, userMessage: string): AppError {
  return new AppError('VALIDATION_FAILED', { field, userMessage })
}

/** A new intent id: 0x + 64 random hex digits (it goes on chain as PayRouter's bytes32). */
export function createIntentId(): `0x${string}` {
  return `0x${randomBytes(32).toString('hex')}`
}

/** Who asks for a route: the signed-in user's embedded wallet, or null for a signed-out payer. */
export type RouteCaller = { address: string } | null

/**
 * Builds a route with the provider and stores it as a route intent (so a receipt can be posted
 * for it and the payment tracked). A route pays a link: `linkId` names it and the route must pay
 * that enabled link's receiver, chain and token. Only a signed-in user swapping into their own
 * wallet (Self Swap, `toAddress` is `caller`'s address) may leave `linkId` out
 * (docs/decisions/0018). A route may also name an invoice of that link (`invoiceId`), which it
 * must be able to pay (assertRoutePaysInvoice) and which is stored on the intent, so the invoice
 * worker credits what the receiver verifiably got. Throws AppError 404 for an unknown link or invoice, 422 for bad input, a missing,
 * disabled or mismatched link or a route the provider cannot build, 503 when the provider is
 * unavailable. `request` is the body as `routeRequestBodySchema` parsed it (the route validated
 * every field). `requestId` (the asking request's) is stored for the workers' log lines
 * (docs/api.md#request-ids). With `toAmount` instead of `fromAmount` the input is computed so the
 * receiver gets at least that much (quote-route.ts), and the estimate names the expected excess.
 */
export async function buildRoute(
  db: Database,
  provider: RoutingProvider,
  request: RouteRequestBody,
  caller: RouteCaller = null,
  requestId: string | null = null,
): Promise<RouteResult> {
  if (request.linkId) await assertRoutePaysLink(db, request, request.linkId)
  else if (!isSelfSwap(request, caller)) throw invalid('linkId', linkRequiredMessage)
  await assertRoutePaysInvoice(db, request)
  const intentId = createIntentId()
  const { fromAmount, quote, exactOutput } = await quoteRoute(
    provider,
    {
      fromChainId: request.fromChain,
      toChainId: request.toChain,
      fromToken: request.fromToken,
      toToken: request.toToken,
      fromAddress: request.fromAddress,
      toAddress: request.toAddress,
      slippage: request.slippage,
      intentId,
    },
    { fromAmount: request.fromAmount, toAmount: request.toAmount },
  )
  await insertRouteIntent(db, {
    id: intentId,
    provider: provider.name,
    linkId: request.linkId,
    invoiceId: request.invoiceId,
    fromChainId: request.fromChain,
    toChainId: request.toChain,
    fromToken: request.fromToken.toLowerCase(),
    toToken: request.toToken.toLowerCase(),
    fromAmount: fromAmount.toString(),
    toAmount: quote.toAmount.toString(),
    toAmountMin: quote.toAmountMin.toString(),
    fromAddress: request.fromAddress.toLowerCase(),
    toAddress: request.toAddress.toLowerCase(),
    slippage: request.slippage,
    transactionRequest: quote.transactionRequest as TransactionRequest & Record<string, unknown>,
    actions: quote.actions satisfies RouteAction[],
    providerData: quote.providerData,
    estimatedDurationMs: quote.estimatedDurationMs,
    requestId,
  })
  return {
    intentId,
    route: {
      transactionRequest: quote.transactionRequest,
      estimate: {
        fromAmount: fromAmount.toString(),
        toAmount: quote.toAmount.toString(),
        toAmountMin: quote.toAmountMin.toString(),
        ...(exactOutput && {
          requestedToAmount: exactOutput.requestedToAmount.toString(),
          expectedExcess: exactOutput.expectedExcess.toString(),
        }),
        estimatedRouteDuration: Math.round(quote.estimatedDurationMs / 1000),
        actions: quote.actions,
      },
      spender: quote.spender,
      ...(quote.acceptsPermit === true && { acceptsPermit: true }),
    },
  }
}

/** The 422 for a route that names no link and is not the caller's own Self Swap. */
export const linkRequiredMessage =
  'linkId must name the link this route pays (only a signed-in user swapping into their own wallet may leave it out).'

/** True when a signed-in caller routes into their own wallet (Self Swap): no link is paid. */
function isSelfSwap(request: RouteRequestBody, caller: RouteCaller): boolean {
  return caller !== null && caller.address.toLowerCase() === request.toAddress.toLowerCase()
}

/**
 * Refuses a route that does not pay the link it names: 404 when no link has this id (deleted),
 * 422 when its owner turned it off, 422 when toChain, toToken or toAddress is not the link's.
 * A route is refused here, before the provider quotes it, so a payer who names a link cannot
 * be handed a transaction that pays anyone else.
 */
async function assertRoutePaysLink(db: Database, request: RouteRequestBody, linkId: string): Promise<void> {
  const [link] = await db.select().from(links).where(eq(links.id, linkId)).limit(1)
  if (!link) {
    throw new AppError('NOT_FOUND', {
      field: 'linkId',
      message: `Route asked for link ${linkId}, which does not exist`,
      userMessage: 'This link does not exist: it may have been deleted.',
    })
  }
  if (!link.enabled) throw invalid('linkId', 'This link is unavailable: its owner has turned it off.')
  const sameToken =
    isNativeTokenAddress(link.tokenAddress) && isNativeTokenAddress(request.toToken)
      ? true
      : link.tokenAddress.toLowerCase() === request.toToken.toLowerCase()
  if (
    link.chainId !== request.toChain ||
    !sameToken ||
    link.receiverAddress.toLowerCase() !== request.toAddress.toLowerCase()
  ) {
    throw invalid(
      'linkId',
      "The route does not pay this link: toChain, toToken and toAddress must be the link's.",
    )
  }
}
