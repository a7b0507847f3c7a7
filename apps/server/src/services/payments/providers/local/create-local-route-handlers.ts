import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import { getChainRpcUrl } from '../../../chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../../chains/get-local-public-client.ts'
import type { RoutingProvider } from '../../route/routing-provider.ts'
import { buildLocalRoute } from './build-local-route.ts'
import { getLocalChainOrThrow } from './local-devnet-chain.ts'
import { findPayRouterFill } from './payrouter/find-pay-router-fill.ts'
import { getPayRouterAddressOrThrow } from './payrouter/get-pay-router-address-or-throw.ts'

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
 * Uniswap V2 pools, and whether a cross-chain order was filled (the tracker checks what the fill paid).
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
      // The order key comes from the source receipt (the tracker reads it); without it, nothing is known yet.
      const deployment = await getDevnetDeploymentOrThrow(options.devnetDeploymentFile)
      const destination = getLocalChainOrThrow(deployment, query.toChainId, 'toChain')
      const orderKey = query.providerData.orderKey
      const fromBlock = query.providerData.destinationFromBlock
      const fill =
        typeof orderKey === 'string' && /^0x[0-9a-f]{64}$/i.test(orderKey)
          ? await findPayRouterFill({
              client: clientFor(deployment)(destination),
              payRouter: getPayRouterAddressOrThrow(destination),
              orderKey: orderKey as `0x${string}`,
              fromBlock: BigInt(typeof fromBlock === 'number' ? fromBlock : 0),
            })
          : undefined
      return {
        statusRaw: fill ? 'success' : 'ongoing',
        destTxHash: fill?.txHash ?? null,
        toAmountWei: fill?.amount ?? null,
        steps: [
          { type: 'bridge', chainId: query.fromChainId, txHash: query.sourceTxHash, status: 'success' },
          {
            type: 'transfer',
            chainId: query.toChainId,
            txHash: fill?.txHash ?? null,
            status: fill ? 'success' : 'pending',
          },
        ],
        gasStatus: null,
        isGmpTransaction: false,
        axelarTransactionUrl: null,
        errorMessage: null,
      }
    },
  }
}
