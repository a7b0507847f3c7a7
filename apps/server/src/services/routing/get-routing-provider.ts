import type { ServerConfig } from '../../config/server-env.ts'
import { getRelayerAccount } from '../relayer/get-relayer-account.ts'
import { createLocalRoutingProvider } from './providers/local/create-local-routing-provider.ts'
import { createSquidRoutingProvider } from './providers/squid/create-squid-routing-provider.ts'
import type { RoutingProvider } from './routing-provider.ts'
import { shareInFlight } from './share-in-flight.ts'

/** Squid's catalogue changes rarely; its prices may be this old. */
const squidCatalogueTtlMs = 30_000

/**
 * The routing provider ROUTING_PROVIDER selects: `local` (the devnet) or `squid` (Squid v2 at
 * SQUID_API_URL). Concurrent `chains()` and `tokens()` calls share one in-flight request; Squid's
 * answers are reused for 30 s, the devnet's are read afresh (its pool prices move with every swap).
 */
export function getRoutingProvider(
  config: Pick<
    ServerConfig,
    | 'routingProvider'
    | 'relayerPrivateKey'
    | 'devnetDeploymentFile'
    | 'devMode'
    | 'rpcUrls'
    | 'squidApiUrl'
    | 'squidIntegratorId'
  >,
): RoutingProvider {
  if (config.routingProvider === 'squid') {
    return withSharedCatalogue(
      createSquidRoutingProvider({ apiUrl: config.squidApiUrl, integratorId: config.squidIntegratorId }),
      squidCatalogueTtlMs,
    )
  }
  return withSharedCatalogue(
    createLocalRoutingProvider({
      devnetDeploymentFile: config.devnetDeploymentFile,
      devMode: config.devMode,
      relayerAddress: getRelayerAccount(config)?.address,
      rpcUrls: config.rpcUrls,
    }),
    0,
  )
}

function withSharedCatalogue(provider: RoutingProvider, ttlMs: number): RoutingProvider {
  const tokens = shareInFlight(() => provider.tokens(), ttlMs)
  const tokensWithoutPrices = shareInFlight(() => provider.tokens({ withoutPrices: true }), ttlMs)
  return {
    ...provider,
    chains: shareInFlight(() => provider.chains(), ttlMs),
    tokens: (options) => (options?.withoutPrices ? tokensWithoutPrices() : tokens()),
  }
}
