import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getChainRpcUrl } from '../../../chains/get-chain-rpc-url.ts'
import { getDevnetDeploymentOrThrow } from '../../../devnet/get-devnet-deployment-or-throw.ts'
import type { RoutingProvider } from '../../routing-provider.ts'
import { buildLocalRoute } from './build-local-route.ts'
import { getLocalPublicClient } from './get-local-public-client.ts'
import { getLocalRouteStatus } from './get-local-route-status.ts'

export type LocalRouteHandlersOptions = {
  devnetDeploymentFile: string
  /** RPC_URL_<chainId> overrides; the deployment's URL otherwise. */
  rpcUrls?: Readonly<Record<number, string>>
  /** The relayer's address; without one, cross-chain routes answer 503. */
  relayerAddress?: `0x${string}` | undefined
  /** Epoch ms; tests move it. */
  now?: () => number
}

/**
 * The `local` provider's `route()` and `status()`: PayRouter calls quoted on the devnet's
 * Uniswap V2 pools, and cross-chain progress read from PayRouter on both chains.
 */
export function createLocalRouteHandlers(
  options: LocalRouteHandlersOptions,
): Pick<RoutingProvider, 'route' | 'status'> {
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
    async status(query) {
      const deployment = await getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
      return getLocalRouteStatus({ deployment, getClient: clientFor(deployment) }, query)
    },
  }
}
