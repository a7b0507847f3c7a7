import type { RoutingToken } from '@quicklinks/core/api/routing'
import { toTokenKey } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, sql } from 'drizzle-orm'
import { routeIntents } from '../../../db/schema.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'

/** A token as a payment names it (core's paymentTokenSchema). */
export type PaymentToken = { address: string; symbol: string; decimals: number }

/** A token reference as a stored route action carries it (symbol and decimals as quoted). */
export type StoredTokenRef = { symbol?: unknown; decimals?: unknown } | null

function isUsableRef(ref: StoredTokenRef): ref is { symbol: string; decimals: number } {
  return ref !== null && typeof ref.symbol === 'string' && typeof ref.decimals === 'number'
}

/** The token as the last action of one stored route into it names it (totals have no row of their own). */
async function findStoredDestinationRef(
  db: Database,
  chainId: number,
  address: string,
): Promise<StoredTokenRef> {
  const [row] = await db
    .select({ ref: sql<StoredTokenRef>`${routeIntents.actions} -> -1 -> 'toToken'` })
    .from(routeIntents)
    .where(and(eq(routeIntents.toChainId, chainId), eq(routeIntents.toToken, address.toLowerCase())))
    .limit(1)
  return row?.ref ?? null
}

/**
 * Names payment tokens: from the token reference the route's quote stored (what the payer was
 * shown), else from the routing provider's token list (read at most once per resolver, and only
 * when needed), else from a stored route into that token. A token none knows keeps its address,
 * an empty symbol and 0 decimals (amounts then read in the smallest unit). Never throws: a
 * provider or database that cannot answer leaves the token unknown.
 */
export function createPaymentTokenResolver(provider: Pick<RoutingProvider, 'tokens'>, db?: Database) {
  let catalogue: Promise<Map<string, RoutingToken>> | undefined
  const loadCatalogue = () => {
    catalogue ??= provider
      .tokens({ withoutPrices: true })
      .then((tokens) => new Map(tokens.map((token) => [keyOf(token.chainId, token.address), token])))
      .catch(() => new Map<string, RoutingToken>())
    return catalogue
  }
  const resolved = new Map<string, PaymentToken>()
  return {
    /**
     * The token as already resolved for this key (a stored reference wins), without waiting:
     * an export names the same few tokens on every one of its rows.
     */
    resolveKnown(chainId: number, address: string, ref: StoredTokenRef): PaymentToken | undefined {
      if (isUsableRef(ref))
        return { address: address.toLowerCase(), symbol: ref.symbol, decimals: ref.decimals }
      return resolved.get(keyOf(chainId, address))
    },
    /** The token at `address` on `chainId`, given the stored reference (null when none). */
    async resolve(chainId: number, address: string, ref: StoredTokenRef): Promise<PaymentToken> {
      const known = this.resolveKnown(chainId, address, ref)
      if (known !== undefined) return known
      const token = await this.resolveUnknown(chainId, address)
      resolved.set(keyOf(chainId, address), token)
      return token
    },
    async resolveUnknown(chainId: number, address: string): Promise<PaymentToken> {
      const lower = address.toLowerCase()
      const token = (await loadCatalogue()).get(keyOf(chainId, address))
      if (token !== undefined) return { address: lower, symbol: token.symbol, decimals: token.decimals }
      const stored =
        db === undefined ? null : await findStoredDestinationRef(db, chainId, address).catch(() => null)
      return isUsableRef(stored)
        ? { address: lower, symbol: stored.symbol, decimals: stored.decimals }
        : { address: lower, symbol: '', decimals: 0 }
    },
  }
}

/** Resolves payment tokens; see `createPaymentTokenResolver`. */
export type PaymentTokenResolver = ReturnType<typeof createPaymentTokenResolver>

function keyOf(chainId: number, address: string): string {
  return `${chainId}:${toTokenKey(address)}`
}
