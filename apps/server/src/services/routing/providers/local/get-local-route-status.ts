import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import type { DevnetChainDeployment, DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import type { PublicClient } from 'viem'
import type { RouteStatus, RouteStatusQuery, RouteStepStatus } from '../../routing-provider.ts'
import { getLocalChainOrThrow, getPayRouterAddressOrThrow } from './local-devnet-chain.ts'

/** PayRouter's escrow states (`deposits(intentId).state`). */
const refundedState = 3

export type GetLocalRouteStatusOptions = {
  deployment: DevnetDeployment
  getClient: (chain: DevnetChainDeployment) => PublicClient
}

/**
 * The progress of a cross-chain `local` payment whose deposit is mined, read from the chains
 * themselves (so it holds whichever relayer instance did the work): `success` once PayRouter on
 * the destination says `filled(intentId)` (with the `Filled` event's hash and amount),
 * `refunded` once the source escrow was paid back, else `ongoing`. Same-chain payments end with
 * their source receipt and never get here. Throws on RPC errors; the tracker retries.
 */
export async function getLocalRouteStatus(
  options: GetLocalRouteStatusOptions,
  query: RouteStatusQuery,
): Promise<RouteStatus> {
  const sourceChain = getLocalChainOrThrow(options.deployment, query.fromChainId, 'fromChain')
  const destinationChain = getLocalChainOrThrow(options.deployment, query.toChainId, 'toChain')
  const sourceClient = options.getClient(sourceChain)
  const destinationClient = options.getClient(destinationChain)
  const destinationRouter = getPayRouterAddressOrThrow(destinationChain)

  const isFilled = await destinationClient.readContract({
    address: destinationRouter,
    abi: payRouterAbi,
    functionName: 'filled',
    args: [query.intentId],
  })
  if (isFilled) {
    const logs = await destinationClient.getContractEvents({
      address: destinationRouter,
      abi: payRouterAbi,
      eventName: 'Filled',
      args: { intentId: query.intentId },
      fromBlock: 'earliest',
      toBlock: 'latest',
    })
    const fill = logs[0]
    const destTxHash = fill?.transactionHash ?? null
    return {
      statusRaw: 'success',
      destTxHash,
      toAmountWei: fill?.args.amount ?? null,
      steps: buildSteps(query, 'success', destTxHash),
      gasStatus: null,
      isGmpTransaction: false,
      axelarTransactionUrl: null,
      errorMessage: null,
    }
  }
  const [, , , , state] = await sourceClient.readContract({
    address: getPayRouterAddressOrThrow(sourceChain),
    abi: payRouterAbi,
    functionName: 'deposits',
    args: [query.intentId],
  })
  const isRefunded = state === refundedState
  return {
    statusRaw: isRefunded ? 'refunded' : 'ongoing',
    destTxHash: null,
    toAmountWei: null,
    steps: buildSteps(query, isRefunded ? 'refunded' : 'pending', null),
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: isRefunded
      ? 'The relayer could not fill this payment before its deadline; the deposit went back to the payer.'
      : null,
  }
}

/**
 * Step statuses for the tracker to align with the route's actions: the source side (a swap into
 * the escrow, the deposit) is done once this is asked; the destination side follows the fill.
 */
function buildSteps(
  query: RouteStatusQuery,
  destinationStatus: string,
  destTxHash: `0x${string}` | null,
): RouteStepStatus[] {
  return [
    { type: 'bridge', chainId: query.fromChainId, txHash: query.sourceTxHash, status: 'success' },
    { type: 'transfer', chainId: query.toChainId, txHash: destTxHash, status: destinationStatus },
  ]
}
