import type { Chain } from '../routing/catalogue'
import type { LinkTypeDefinition } from './link-types'

/** The type's allowed chains, filtered from the offered ones (all when the type has no limit). */
export function filterChainsForType(chains: readonly Chain[], type: LinkTypeDefinition | undefined): Chain[] {
  const allowed = type?.limits?.chains
  if (allowed === undefined) return [...chains]
  return chains.filter((chain) => allowed.includes(chain.networkIdentifier))
}
