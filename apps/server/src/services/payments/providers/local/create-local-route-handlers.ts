import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { Hash } from 'viem'
import { getChainRpcUrl } from '../../../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../../chains/get-local-public-client.ts'
import type { RoutingProvider } from '../../route/routing-provider.ts'
import { buildLocalRoute } from './build-local-route.ts'
import type { LocalProviderData } from './local-provider-data.ts'
import { quoteLocalFromAmount } from './quote-local-from-amount.ts'
import { readLocalDeposit } from './read-local-deposit.ts'
import { readLocalStatus } from './read-local-status.ts'

export type LocalRouteHandlersOptions = {
  devnetDeploymentFile: string
  /** RPC_URL_<chainId> overrides; the deployment's URL otherwise. */
  rpcUrls?: Readonly<Record<number, string>>
  /** The relayer's address; without one, cross-chain routes answer 503. */
  relayerAddress?: `0x${string}` | undefined
  /** Epoch ms; tests move it. */
  now?: () => number
  /** The fill the relayer recorded for an order (relayer_deposits), checked before a log search. */
  readFillHint?: (sourceChainId: number, orderKey: Hash) => Promise<Hash | null>
  /** Told when a cross-chain deposit has its source confirmations (wakes the relayer's lane). */
  onDepositConfirmed?: (chainId: number) => void
}

/**
 * The `local` provider's `route()`, `quoteFromAmount()` (exact output), `status()` and
 * `readEscrow()`: PayRouter calls quoted on the devnet's Uniswap V2 pools, where a payment was
 * delivered (readLocalStatus; the tracker verifies it), and what became of a cross-chain deposit's
 * escrow (readLocalDeposit, for the status page).
 */
export function createLocalRouteHandlers(
  options: LocalRouteHandlersOptions,
): Pick<RoutingProvider<LocalProviderData>, 'route' | 'quoteFromAmount' | 'status' | 'readEscrow'> {
  const clientFor = (deployment: DevnetDeployment) => (chain: DevnetChainDeployment) =>
    getLocalPublicClient(getChainRpcUrl({ rpcUrls: options.rpcUrls ?? {} }, chain.chainId, deployment.chains))
  return {
    async route(request) {
      const deployment = await getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
      return buildLocalRoute(
        {
          deployment,
          getClient: clientFor(deployment),
          relayerAddress: options.relayerAddress,
          ...(options.now ? { now: options.now } : {}),
        },
        request,
      )
    },
    async quoteFromAmount(request) {
      const deployment = await getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
      return quoteLocalFromAmount({ deployment, getClient: clientFor(deployment) }, request)
    },
    status(query) {
      return readLocalStatus(
        {
          getClient: async (chainId) => {
            const deployment = await getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
            return getLocalPublicClient(
              getChainRpcUrl({ rpcUrls: options.rpcUrls ?? {} }, chainId, deployment.chains),
            )
          },
          ...(options.readFillHint ? { readFillHint: options.readFillHint } : {}),
          ...(options.onDepositConfirmed ? { onDepositConfirmed: options.onDepositConfirmed } : {}),
        },
        query,
      )
    },
    async readEscrow(query) {
      const deployment = await getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
      return readLocalDeposit({
        data: query.providerData,
        fromChainId: query.fromChainId,
        sourceTxHash: query.sourceTxHash,
        getClient: (chainId) =>
          getLocalPublicClient(
            getChainRpcUrl({ rpcUrls: options.rpcUrls ?? {} }, chainId, deployment.chains),
          ),
      })
    },
  }
}
