import type { RoutingChain } from '@quicklinks/core/api/routing'
import type { LinkTypeDefinition } from './link-types'

/** The type's allowed chains, filtered from the offered ones (all when the type has no limit). */
export function filterChainsForType(
  chains: readonly RoutingChain[],
  type: LinkTypeDefinition | undefined,
): RoutingChain[] {
  const allowed = type?.limits?.chains
  if (allowed === undefined) return [...chains]
  return chains.filter((chain) => allowed.includes(chain.networkIdentifier))
}
