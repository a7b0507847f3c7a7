import {
  type ChainContracts,
  catalogueAnswerSchema,
  type RoutingChain,
  type RoutingToken,
  routingChainSchema,
  routingTokenSchema,
} from '@quicklinks/core/api/routing'
import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import * as z from 'zod/mini'
import { type ApiClient, api } from '../../lib/api-client'
import { getRoutingProvider, type RoutingProviderSource } from './routing-provider'

/** A catalogue read: the list, and the documented message when it failed (the list is then empty). */
export type CatalogueResult<T> = { items: T[]; error: string | null }

/** A chain's network name from the catalogue, or 'Chain {id}' when the catalogue lacks it. */
export function getChainName(chains: readonly RoutingChain[], chainId: number): string {
  return chains.find((chain) => chain.chainId === chainId)?.networkName ?? `Chain ${chainId}`
}

/** The routing provider's contracts on a chain from the catalogue (none when the catalogue lacks it). */
export function getChainContracts(chains: readonly RoutingChain[], chainId: number): ChainContracts {
  return chains.find((chain) => chain.chainId === chainId)?.contracts ?? {}
}

/** The USD price of a chain's native token among `tokens`, or null when none is priced. */
export function findNativeUsdPrice(tokens: readonly RoutingToken[], chainId: number): number | null {
  return (
    tokens.find((token) => token.chainId === chainId && isNativeTokenAddress(token.address))?.usdPrice ?? null
  )
}

/** The entries `schema` accepts, parsed; the others (a chain type the contract does not name) are left out. */
function keepParsed<Schema extends z.core.$ZodType>(
  entries: readonly unknown[],
  schema: Schema,
): z.output<Schema>[] {
  return entries.flatMap((entry) => {
    const parsed = z.safeParse(schema, entry)
    return parsed.success ? [parsed.data] : []
  })
}

export type Catalogue = {
  /**
   * GET /api/{provider}/chains, evm only. A failure (of this call or of GET /api/config, which names
   * the provider) gives an empty list and 'Failed to load chains'.
   */
  getChains(): Promise<CatalogueResult<RoutingChain>>
  /**
   * GET /api/{provider}/tokens, evm only, cached in memory for the session and indexed by chain id;
   * concurrent calls share one request. A failure gives an empty list and 'Failed to load tokens'
   * (and is not cached, so the next call asks again).
   */
  getTokens(chainId?: number): Promise<CatalogueResult<RoutingToken>>
}

/**
 * Builds a catalogue over one API client and the source of the provider's name (the server's
 * GET /api/config by default); the app uses `catalogue` below.
 */
export function createCatalogue(
  client: ApiClient = api,
  loadProvider: RoutingProviderSource = getRoutingProvider,
): Catalogue {
  let chains: Promise<CatalogueResult<RoutingChain>> | undefined
  let tokensByChain: Promise<Map<number, RoutingToken[]> | null> | undefined

  const loadChains = async (): Promise<CatalogueResult<RoutingChain>> => {
    try {
      const provider = await loadProvider()
      const body = await client.request(`/api/${provider}/chains`, catalogueAnswerSchema, {
        fallbackMessage: 'Failed to load chains',
      })
      return { items: keepParsed(body.data, routingChainSchema), error: null }
    } catch {
      chains = undefined
      return { items: [], error: 'Failed to load chains' }
    }
  }

  const loadTokens = async (): Promise<Map<number, RoutingToken[]> | null> => {
    try {
      const provider = await loadProvider()
      const body = await client.request(`/api/${provider}/tokens`, catalogueAnswerSchema, {
        fallbackMessage: 'Failed to load tokens',
      })
      const index = new Map<number, RoutingToken[]>()
      for (const token of keepParsed(body.data, routingTokenSchema)) {
        const list = index.get(token.chainId) ?? []
        list.push(token)
        index.set(token.chainId, list)
      }
      return index
    } catch {
      tokensByChain = undefined
      return null
    }
  }

  return {
    getChains() {
      chains ??= loadChains()
      return chains
    },
    async getTokens(chainId) {
      tokensByChain ??= loadTokens()
      const index = await tokensByChain
      if (index === null) return { items: [], error: 'Failed to load tokens' }
      const items = chainId === undefined ? [...index.values()].flat() : (index.get(chainId) ?? [])
      return { items, error: null }
    },
  }
}

/** The app's catalogue: one per page load. */
export const catalogue: Catalogue = createCatalogue()

/** Only enabled and visible chains, sorted by network identifier (docs/product.md#catalogue-filters). */
export function selectOfferedChains(chains: readonly RoutingChain[]): RoutingChain[] {
  return chains
    .filter((chain) => chain.enabled && chain.visible)
    .sort((left, right) => left.networkIdentifier.localeCompare(right.networkIdentifier))
}

/** Only active and visible tokens, sorted by symbol (docs/product.md#catalogue-filters). */
export function selectOfferedTokens(tokens: readonly RoutingToken[]): RoutingToken[] {
  return tokens
    .filter((token) => token.active && token.visible)
    .sort((left, right) => left.symbol.localeCompare(right.symbol))
}
