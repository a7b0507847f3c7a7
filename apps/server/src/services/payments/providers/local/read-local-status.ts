import type { Hash, PublicClient } from 'viem'
import type { RouteStatus, RouteStatusQuery } from '../../route/routing-provider.ts'
import type { LocalProviderData } from './local-provider-data.ts'
import { findPayRouterFill } from './payrouter/find-pay-router-fill.ts'
import { parsePayRouterLogs } from './payrouter/parse-pay-router-logs.ts'
import { payRouterEscrowState, readPayRouterDepositState } from './payrouter/read-pay-router-state.ts'

export type LocalStatusContext = {
  /** A public client of a devnet chain (RPC_URL_<id> first). */
  getClient(chainId: number): Promise<PublicClient>
  /** The fill transaction the relayer recorded for an order, if any (it saves a log search). */
  readFillHint?(sourceChainId: number, orderKey: Hash): Promise<Hash | null>
  /** Told when a cross-chain deposit has its source confirmations, so the relayer looks at once. */
  onDepositConfirmed?(chainId: number): void
}

/**
 * The local provider's view of a payment (the tracker verifies what it names): a same-chain route
 * is delivered by its own transaction through PayRouter; a cross-chain one by the relayer's fill
 * of the order its source transaction deposited, once the deposit has its confirmations, else it
 * is bridging, refunded (the escrow went back to the payer), or failed past its deadline and
 * still watched until the refund. Throws on RPC errors (the tracker retries).
 */
export async function readLocalStatus(
  context: LocalStatusContext,
  query: RouteStatusQuery<LocalProviderData>,
): Promise<RouteStatus> {
  const data = query.providerData
  if (data.kind !== 'deposit') {
    return status('success', {
      destTxHash: query.sourceTxHash,
      payoutContract: data.payRouter as `0x${string}`,
    })
  }
  const [deposit] = parsePayRouterLogs([...query.source.logs], data.payRouter, 'Deposited')
  if (!deposit)
    return status('failed', { errorMessage: 'The deposit is missing from the source transaction.' })
  const orderKey = deposit.args.orderKey
  if (!query.source.isConfirmed) return status('ongoing', { orderKey })
  context.onDepositConfirmed?.(query.fromChainId)
  const destinationClient = await context.getClient(query.toChainId)
  const destinationPayRouter = data.destinationPayRouter as `0x${string}`
  const fill = await findPayRouterFill({
    client: destinationClient,
    payRouter: destinationPayRouter,
    orderKey,
    fromBlock: BigInt(data.destinationFromBlock),
    hintTxHash: (await context.readFillHint?.(query.fromChainId, orderKey)) ?? null,
  })
  if (fill) {
    return status('success', {
      orderKey,
      destTxHash: fill.txHash,
      payoutContract: destinationPayRouter,
    })
  }
  const sourceClient = await context.getClient(query.fromChainId)
  const escrow = await readPayRouterDepositState(sourceClient, data.payRouter as `0x${string}`, orderKey)
  if (escrow === payRouterEscrowState.refunded) {
    return status('refunded', {
      orderKey,
      errorMessage:
        'The relayer did not fill this payment before its deadline; the deposit went back to the payer.',
    })
  }
  const deadline = Number(deposit.args.order.fillDeadline)
  const destinationTime = Number((await destinationClient.getBlock({ blockTag: 'latest' })).timestamp)
  if (destinationTime > deadline) {
    // Nobody can fill it any more; the escrow goes back to the payer once the settlement window ends.
    return status('failed', {
      orderKey,
      isFinal: false,
      errorMessage: `The relayer did not fill this payment before its deadline; the payer can take the deposit back after ${new Date((deadline + 3600) * 1000).toISOString()}.`,
    })
  }
  return status('ongoing', { orderKey })
}

/** A status of the local provider: no gas, GMP or Axelar words; the tracker derives the steps from the route. */
function status(statusRaw: string, fields: Partial<RouteStatus>): RouteStatus {
  return {
    statusRaw,
    destTxHash: null,
    toAmountWei: null,
    steps: [],
    gasStatus: null,
    isGmpTransaction: false,
    axelarTransactionUrl: null,
    errorMessage: null,
    ...fields,
  }
}
