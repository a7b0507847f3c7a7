import type { RoutingToken } from '@quicklinks/core/api/routing'
import type { LinkTypeDefinition } from './link-types'

/** The type's allowed tokens on one chain (by symbol, case-insensitive). */
export function filterTokensForType(
  tokens: readonly RoutingToken[],
  chain: string,
  type: LinkTypeDefinition | undefined,
): RoutingToken[] {
  const limits = type?.limits
  const symbols = limits?.tokenSymbolsByChain?.[chain] ?? limits?.tokenSymbols
  if (symbols === undefined) return [...tokens]
  const upper = symbols.map((symbol) => symbol.toUpperCase())
  return tokens.filter((token) => upper.includes(token.symbol.toUpperCase()))
}
