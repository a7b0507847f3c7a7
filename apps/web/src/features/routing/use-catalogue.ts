import { queryOptions, useQuery } from '@tanstack/react-query'
import { type Catalogue, catalogue } from './catalogue'

export const catalogueKeys = {
  all: ['catalogue'] as const,
  chains: () => ['catalogue', 'chains'] as const,
  tokens: () => ['catalogue', 'tokens'] as const,
}

/** The chain list as a query; the catalogue itself caches, so the query never goes stale. */
export function chainsQueryOptions(source: Catalogue = catalogue) {
  return queryOptions({
    queryKey: catalogueKeys.chains(),
    queryFn: () => source.getChains(),
    // A failed read (empty list with a message) is asked again the next time a screen needs it.
    staleTime: (query) => (query.state.data?.error == null ? Number.POSITIVE_INFINITY : 0),
  })
}

/** Every token of every chain as a query. */
export function tokensQueryOptions(source: Catalogue = catalogue) {
  return queryOptions({
    queryKey: catalogueKeys.tokens(),
    queryFn: () => source.getTokens(),
    // A failed read (empty list with a message) is asked again the next time a screen needs it.
    staleTime: (query) => (query.state.data?.error == null ? Number.POSITIVE_INFINITY : 0),
  })
}

/** The routing provider's chains: `{items, error}` once loaded. */
export function useChains() {
  return useQuery(chainsQueryOptions())
}

/** The routing provider's tokens of all chains: `{items, error}` once loaded. */
export function useTokens() {
  return useQuery(tokensQueryOptions())
}
