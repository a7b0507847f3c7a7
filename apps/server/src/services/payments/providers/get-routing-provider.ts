import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { ServerConfig } from '../../../config/server-env.ts'
import type { PaymentWorkerHost, ProviderData, RoutingProvider } from '../route/routing-provider.ts'
import { shareInFlight } from '../route/share-in-flight.ts'
import { createLocalRoutingProvider } from './local/create-local-routing-provider.ts'
import { createRelayerWorker } from './local/relayer/create-relayer-worker.ts'
import { getRelayerAccount } from './local/relayer/get-relayer-account.ts'
import { readRelayerFillTxHash } from './local/relayer/relayer-deposits-repository.ts'
import type { RelayerHub } from './local/relayer/relayer-hub.ts'
import { createSquidRoutingProvider } from './squid/create-squid-routing-provider.ts'

/** Squid's catalogue changes rarely; its prices may be this old. */
const squidCatalogueTtlMs = 30_000

export type RoutingProviderConfig = Pick<
  ServerConfig,
  | 'routingProvider'
  | 'relayerPrivateKey'
  | 'devnetDeploymentFile'
  | 'devMode'
  | 'rpcUrls'
  | 'squidApiUrl'
  | 'squidIntegratorId'
  | 'workerIntervalMs'
  | 'confirmations'
  | 'defaultConfirmations'
>

/**
 * The routing provider ROUTING_PROVIDER selects: `local` (the devnet, with its relayer as its
 * worker when a relayer key is configured) or `squid` (Squid v2 at SQUID_API_URL). Concurrent
 * `chains()` and `tokens()` calls share one in-flight request; Squid's answers are reused for 30 s,
 * the devnet's are read afresh (its pool prices move with every swap). With `db`, the local
 * provider's status reads the relayer's recorded fills before searching the logs; with
 * `relayerHub` (the app's), the relayer worker signs through it.
 */
export function getRoutingProvider(
  config: RoutingProviderConfig,
  dependencies: { db?: Database; relayerHub?: RelayerHub } = {},
): RoutingProvider {
  if (config.routingProvider === 'squid') {
    return withSharedCatalogue(
      createSquidRoutingProvider({ apiUrl: config.squidApiUrl, integratorId: config.squidIntegratorId }),
      squidCatalogueTtlMs,
    )
  }
  const relayerAccount = getRelayerAccount(config)
  const { db } = dependencies
  // The workers' runner, once the app runs them: a confirmed deposit wakes the relayer's lane.
  let wake: PaymentWorkerHost['wake'] | undefined
  const local = createLocalRoutingProvider({
    devnetDeploymentFile: config.devnetDeploymentFile,
    devMode: config.devMode,
    relayerAddress: relayerAccount?.address,
    rpcUrls: config.rpcUrls,
    ...(db ? { readFillHint: (chainId, orderKey) => readRelayerFillTxHash(db, chainId, orderKey) } : {}),
    onDepositConfirmed: (chainId) => wake?.('relayer', String(chainId)),
  })
  return withSharedCatalogue(
    {
      ...local,
      workers(host) {
        wake = host.wake
        if (!relayerAccount) return []
        return [
          createRelayerWorker({
            db: host.db,
            config,
            account: relayerAccount,
            ...(dependencies.relayerHub ? { hub: dependencies.relayerHub } : {}),
            logger: host.logger.child({ worker: 'relayer' }),
            ...(host.now ? { now: host.now } : {}),
          }),
        ]
      },
    },
    0,
  )
}

function withSharedCatalogue<Data extends ProviderData>(
  provider: RoutingProvider<Data>,
  ttlMs: number,
): RoutingProvider<Data> {
  const tokens = shareInFlight(() => provider.tokens(), ttlMs)
  const tokensWithoutPrices = shareInFlight(() => provider.tokens({ withoutPrices: true }), ttlMs)
  return {
    ...provider,
    chains: shareInFlight(() => provider.chains(), ttlMs),
    tokens: (options) => (options?.withoutPrices ? tokensWithoutPrices() : tokens()),
  }
}
