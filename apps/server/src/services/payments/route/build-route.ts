import { randomBytes } from 'node:crypto'
import type { RouteResult } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { getAddress } from 'viem'
import { links } from '../../../db/schema.ts'
import { insertRouteIntent } from './route-intents-repository.ts'
import {
  isNativeTokenAddress,
  nativeTokenAddress,
  type RouteAction,
  type RouteRequest,
  type RoutingProvider,
  type TransactionRequest,
} from './routing-provider.ts'

const addressPattern = /^0x[0-9a-fA-F]{40}$/
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function invalid(field: string, userMessage: string): AppError {
  return new AppError('VALIDATION_FAILED', { field, userMessage })
}

function parseChainId(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : value
  if (typeof text !== 'string' || !/^[1-9]\d{0,15}$/.test(text.trim())) {
    throw invalid(field, `${field} must be a chain id such as 8453.`)
  }
  return Number(text.trim())
}

function parseAddress(value: unknown, field: string, what: string): `0x${string}` {
  if (typeof value !== 'string' || !addressPattern.test(value.trim())) {
    throw invalid(field, `${field} must be ${what} (0x followed by 40 hex digits).`)
  }
  return getAddress(value.trim().toLowerCase())
}

function parseTokenAddress(value: unknown, field: string): `0x${string}` {
  const address = parseAddress(value, field, 'a token address')
  return isNativeTokenAddress(address) ? nativeTokenAddress : address
}

function parseAmount(value: unknown): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
  if (typeof text !== 'string' || !/^\d{1,78}$/.test(text.trim()) || BigInt(text.trim()) <= 0n) {
    throw invalid('fromAmount', "fromAmount must be a positive integer in the token's smallest unit.")
  }
  return BigInt(text.trim())
}

function parseSlippage(value: unknown): number {
  if (value === undefined || value === null || value === '') return 1
  const number =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN
  if (!Number.isFinite(number) || number < 0 || number > 50) {
    throw invalid('slippage', 'slippage must be a percentage from 0 to 50.')
  }
  return number
}

/** A route request after validation: checksummed addresses, native as the all-e placeholder. */
export type ParsedRouteRequest = Omit<RouteRequest, 'intentId'> & { linkId: string | null }

/**
 * Checks a route request body field by field. Throws AppError 422 naming the first bad field with
 * a sentence the pay modal can show (e.g. "fromAmount must be a positive integer in the token's
 * smallest unit.").
 */
export function parseRouteRequestOrThrow(body: unknown): ParsedRouteRequest {
  if (typeof body !== 'object' || body === null)
    throw invalid('body', 'Send the route request as a JSON object.')
  const input = body as Record<string, unknown>
  const linkId = input.linkId
  if (
    linkId !== undefined &&
    linkId !== null &&
    linkId !== '' &&
    (typeof linkId !== 'string' || !uuidPattern.test(linkId))
  ) {
    throw invalid('linkId', 'linkId must be a link id (a UUID).')
  }
  return {
    fromChainId: parseChainId(input.fromChain, 'fromChain'),
    toChainId: parseChainId(input.toChain, 'toChain'),
    fromToken: parseTokenAddress(input.fromToken, 'fromToken'),
    toToken: parseTokenAddress(input.toToken, 'toToken'),
    fromAmount: parseAmount(input.fromAmount),
    fromAddress: parseAddress(input.fromAddress, 'fromAddress', 'the paying wallet address'),
    toAddress: parseAddress(input.toAddress, 'toAddress', "the receiver's address"),
    slippage: parseSlippage(input.slippage),
    linkId: typeof linkId === 'string' && linkId !== '' ? linkId.toLowerCase() : null,
  }
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
 * (docs/decisions/0018). Throws AppError 404 for an unknown link, 422 for bad input, a missing,
 * disabled or mismatched link or a route the provider cannot build, 503 when the provider is
 * unavailable. `requestId` (the asking request's) is stored for the workers' log lines
 * (docs/api.md#request-ids).
 */
export async function buildRoute(
  db: Database,
  provider: RoutingProvider,
  body: unknown,
  caller: RouteCaller = null,
  requestId: string | null = null,
): Promise<RouteResult> {
  const request = parseRouteRequestOrThrow(body)
  if (request.linkId) await assertRoutePaysLink(db, request, request.linkId)
  else if (!isSelfSwap(request, caller)) throw invalid('linkId', linkRequiredMessage)
  const intentId = createIntentId()
  const quote = await provider.route({
    fromChainId: request.fromChainId,
    toChainId: request.toChainId,
    fromToken: request.fromToken,
    toToken: request.toToken,
    fromAmount: request.fromAmount,
    fromAddress: request.fromAddress,
    toAddress: request.toAddress,
    slippage: request.slippage,
    intentId,
  })
  await insertRouteIntent(db, {
    id: intentId,
    provider: provider.name,
    linkId: request.linkId,
    fromChainId: request.fromChainId,
    toChainId: request.toChainId,
    fromToken: request.fromToken.toLowerCase(),
    toToken: request.toToken.toLowerCase(),
    fromAmount: request.fromAmount.toString(),
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
        fromAmount: request.fromAmount.toString(),
        toAmount: quote.toAmount.toString(),
        toAmountMin: quote.toAmountMin.toString(),
        estimatedRouteDuration: Math.round(quote.estimatedDurationMs / 1000),
        actions: quote.actions,
      },
      spender: quote.spender,
    },
  }
}

/** The 422 for a route that names no link and is not the caller's own Self Swap. */
export const linkRequiredMessage =
  'linkId must name the link this route pays (only a signed-in user swapping into their own wallet may leave it out).'

/** True when a signed-in caller routes into their own wallet (Self Swap): no link is paid. */
function isSelfSwap(request: ParsedRouteRequest, caller: RouteCaller): boolean {
  return caller !== null && caller.address.toLowerCase() === request.toAddress.toLowerCase()
}

/**
 * Refuses a route that does not pay the link it names: 404 when no link has this id (deleted),
 * 422 when its owner turned it off, 422 when toChain, toToken or toAddress is not the link's.
 * A route is refused here, before the provider quotes it, so a payer who names a link cannot
 * be handed a transaction that pays anyone else.
 */
async function assertRoutePaysLink(db: Database, request: ParsedRouteRequest, linkId: string): Promise<void> {
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
    link.chainId !== request.toChainId ||
    !sameToken ||
    link.receiverAddress.toLowerCase() !== request.toAddress.toLowerCase()
  ) {
    throw invalid(
      'linkId',
      "The route does not pay this link: toChain, toToken and toAddress must be the link's.",
    )
  }
}
