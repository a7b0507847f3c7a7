import type { RoutingChain } from '../payments/route/routing-provider.ts'

/**
 * docs/api.md#balances: a chain name is lowercased, spaces become hyphens, and
 * 'arbitrum-one' becomes 'arbitrum'.
 */
export function normalizeChainName(name: string): string {
  const normalized = name.trim().toLowerCase().replace(/\s+/g, '-')
  return normalized === 'arbitrum-one' ? 'arbitrum' : normalized
}

/**
 * The chain a balances URL names: a networkIdentifier in any spelling that normalisation
 * accepts (its networkName too), or a decimal chain id. Undefined when none matches.
 */
export function resolveBalanceChain(chains: readonly RoutingChain[], name: string): RoutingChain | undefined {
  const trimmed = name.trim()
  if (/^\d+$/.test(trimmed)) return chains.find((chain) => chain.chainId === Number(trimmed))
  const wanted = normalizeChainName(trimmed)
  return (
    chains.find((chain) => normalizeChainName(chain.networkIdentifier) === wanted) ??
    chains.find((chain) => normalizeChainName(chain.networkName) === wanted)
  )
}
