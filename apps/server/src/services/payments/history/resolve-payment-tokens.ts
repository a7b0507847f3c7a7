import type { RoutingToken } from '@quicklinks/core/api/routing'
import { toTokenKey } from '@quicklinks/core/native-token-address'
import type { RoutingProvider } from '../route/routing-provider.ts'

/** A token as a payment names it (core's paymentTokenSchema). */
export type PaymentToken = { address: string; symbol: string; decimals: number }

/** A token reference as a stored route action carries it (symbol and decimals as quoted). */
export type StoredTokenRef = { symbol?: unknown; decimals?: unknown } | null

/**
 * Names payment tokens: from the token reference the route's quote stored (what the payer was
 * shown), else from the routing provider's token list, read at most once per resolver and only
 * when a stored reference is missing. A token neither knows keeps its address, an empty symbol and
 * 0 decimals (amounts then read in the smallest unit). Never throws: a provider that cannot list
 * its tokens leaves them unknown.
 */
export function createPaymentTokenResolver(provider: Pick<RoutingProvider, 'tokens'>) {
  let catalogue: Promise<Map<string, RoutingToken>> | undefined
  const loadCatalogue = () => {
    catalogue ??= provider
      .tokens({ withoutPrices: true })
      .then((tokens) => new Map(tokens.map((token) => [keyOf(token.chainId, token.address), token])))
      .catch(() => new Map<string, RoutingToken>())
    return catalogue
  }
  return {
    /** The token at `address` on `chainId`, given the stored reference (null when none). */
    async resolve(chainId: number, address: string, ref: StoredTokenRef): Promise<PaymentToken> {
      const lower = address.toLowerCase()
      if (ref !== null && typeof ref.symbol === 'string' && typeof ref.decimals === 'number') {
        return { address: lower, symbol: ref.symbol, decimals: ref.decimals }
      }
      const token = (await loadCatalogue()).get(keyOf(chainId, address))
      return token === undefined
        ? { address: lower, symbol: '', decimals: 0 }
        : { address: lower, symbol: token.symbol, decimals: token.decimals }
    },
  }
}

/** Resolves payment tokens; see `createPaymentTokenResolver`. */
export type PaymentTokenResolver = ReturnType<typeof createPaymentTokenResolver>

function keyOf(chainId: number, address: string): string {
  return `${chainId}:${toTokenKey(address)}`
}
