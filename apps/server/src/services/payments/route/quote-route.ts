import { AppError } from '@quicklinks/core/app-error'
import type { RouteQuote, RouteRequest, RoutingProvider } from './routing-provider.ts'

/**
 * Quoting a route by what the payer pays (exact input, `fromAmount`) or by what the receiver must
 * get (exact output, `toAmount`: an invoice or a link with an amount, docs/api.md#route-request).
 * For exact output the receiver's guaranteed minimum (`toAmountMin`, after slippage) must cover the
 * amount: the same token on the same chain pays the amount itself; a provider that can invert its
 * quote (`quoteFromAmount`, the local provider's Uniswap V2 getAmountsIn) names the input; any other
 * (Squid, which only quotes input → output) is probed at the tokens' USD prices, then the input is
 * scaled so the minimum covers the amount, with one more scaled re-quote when it still falls short.
 */

/** The route request a quote needs, before its amount is known. */
export type UnpricedRouteRequest = Omit<RouteRequest, 'fromAmount'>

/** What was quoted: the input the payer sends, the quote, and for exact output what was asked. */
export type QuotedRoute = {
  fromAmount: bigint
  quote: RouteQuote
  /** Exact output only: the amount the receiver must get, and the quote's expected extra over it. */
  exactOutput: { requestedToAmount: bigint; expectedExcess: bigint } | null
}

/**
 * Quotes `request` with `provider` by `fromAmount` or by `toAmount` (exactly one is set; the route
 * schema checked it). Throws the provider's AppErrors, and 422 on `toAmount` when no input could be
 * found whose minimum covers it (no prices to start from, or a price that keeps moving).
 */
export async function quoteRoute(
  provider: RoutingProvider,
  request: UnpricedRouteRequest,
  amounts: { fromAmount?: bigint | undefined; toAmount?: bigint | undefined },
): Promise<QuotedRoute> {
  if (amounts.toAmount === undefined) {
    const fromAmount = amounts.fromAmount ?? 0n
    return { fromAmount, quote: await provider.route({ ...request, fromAmount }), exactOutput: null }
  }
  const toAmount = amounts.toAmount
  let fromAmount = await findStartingInput(provider, request, toAmount)
  let quote = await provider.route({ ...request, fromAmount })
  // Started from prices (a provider that cannot invert its quote): scale that probe to fit.
  if (!isSameToken(request) && provider.quoteFromAmount === undefined) {
    fromAmount = scaleInputToCover(fromAmount, quote.toAmountMin, toAmount)
    quote = await provider.route({ ...request, fromAmount })
  }
  // Still short (the price moved between calls, or rounding): one more scaled re-quote.
  if (quote.toAmountMin < toAmount) {
    fromAmount = scaleInputToCover(fromAmount, quote.toAmountMin, toAmount)
    quote = await provider.route({ ...request, fromAmount })
  }
  if (quote.toAmountMin < toAmount) throw movingPriceError(request)
  const excess = quote.toAmount > toAmount ? quote.toAmount - toAmount : 0n
  return { fromAmount, quote, exactOutput: { requestedToAmount: toAmount, expectedExcess: excess } }
}

function isSameToken(request: UnpricedRouteRequest): boolean {
  return (
    request.fromChainId === request.toChainId &&
    request.fromToken.toLowerCase() === request.toToken.toLowerCase()
  )
}

/** The input to quote first: the amount itself, the provider's inverse quote, or a price estimate. */
async function findStartingInput(
  provider: RoutingProvider,
  request: UnpricedRouteRequest,
  toAmount: bigint,
): Promise<bigint> {
  if (isSameToken(request)) return toAmount
  if (provider.quoteFromAmount) return provider.quoteFromAmount({ ...request, toAmountMin: toAmount })
  return estimateInputFromPrices(provider, request, toAmount)
}

/** USD prices are kept to 1e-9 as integers for the estimate. */
const priceScale = 1_000_000_000

async function estimateInputFromPrices(
  provider: RoutingProvider,
  request: UnpricedRouteRequest,
  toAmount: bigint,
): Promise<bigint> {
  const tokens = await provider.tokens()
  const find = (chainId: number, address: string) =>
    tokens.find((token) => token.chainId === chainId && token.address.toLowerCase() === address.toLowerCase())
  const from = find(request.fromChainId, request.fromToken)
  const to = find(request.toChainId, request.toToken)
  const fromPrice = Math.round((from?.usdPrice ?? 0) * priceScale)
  const toPrice = Math.round((to?.usdPrice ?? 0) * priceScale)
  if (!from || !to || fromPrice <= 0 || toPrice <= 0) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'toAmount',
      message: `No USD prices to start an exact-output quote from ${request.fromToken} to ${request.toToken}`,
      userMessage: 'This token has no price to quote the amount due in: pay in another token.',
    })
  }
  // toAmount in USD, divided by the input's price, in the input's units; rounded up.
  const numerator = toAmount * BigInt(toPrice) * 10n ** BigInt(from.decimals)
  const denominator = BigInt(fromPrice) * 10n ** BigInt(to.decimals)
  return ceilDivide(numerator, denominator) || 1n
}

/**
 * The input that makes a quote whose minimum was `quotedMin` for `fromAmount` reach `toAmount`,
 * assuming the price holds (linear), rounded up and a hundredth of a percent over so the re-quote's
 * rounding does not leave it a unit short.
 */
export function scaleInputToCover(fromAmount: bigint, quotedMin: bigint, toAmount: bigint): bigint {
  if (quotedMin <= 0n) return fromAmount * 2n
  const scaled = ceilDivide(fromAmount * toAmount * 10_001n, quotedMin * 10_000n)
  return scaled > 0n ? scaled : 1n
}

/** `numerator / denominator` rounded up (both positive). */
export function ceilDivide(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator
}

/**
 * The output to quote for so that `slippage` percent off it still covers `amount`:
 * applySlippage(grossUpForSlippage(amount, s), s) >= amount.
 */
export function grossUpForSlippage(amount: bigint, slippage: number): bigint {
  const basisPoints = BigInt(Math.round(slippage * 100))
  return ceilDivide(amount * 10_000n, 10_000n - basisPoints)
}

function movingPriceError(request: UnpricedRouteRequest): AppError {
  return new AppError('VALIDATION_FAILED', {
    field: 'toAmount',
    message: `Exact-output quote from ${request.fromToken} on ${request.fromChainId} did not cover the amount after two re-quotes`,
    userMessage: 'The price is moving too fast to quote the amount due: try again in a moment.',
  })
}
