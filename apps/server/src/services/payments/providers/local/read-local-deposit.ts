import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import type { PayStatusRefund } from '@quicklinks/core/api/pay-status'
import type { Hash, PublicClient } from 'viem'
import type { DepositProviderData } from './local-provider-data.ts'
import { encodePayRouterCall } from './payrouter/encode-pay-router-call.ts'
import { parsePayRouterLogs } from './payrouter/parse-pay-router-logs.ts'
import {
  payRouterEscrowState,
  readPayRouterDepositState,
  readPayRouterFilled,
  readPayRouterSettlementWindow,
} from './payrouter/read-pay-router-state.ts'

/** What the chains say about a cross-chain deposit of PayRouter that the tracker has not seen delivered. */
export type LocalDepositReading =
  /** The relayer filled it on the destination chain: the tracker will verify the delivery. */
  | { kind: 'filled' }
  /** The escrow went back to the payer, by `refundTxHash` when its log was found. */
  | { kind: 'refunded'; refundTxHash: Hash | null }
  /**
   * Still escrowed: `isPastFillDeadline` once the destination's clock passed the deadline (nobody
   * can fill it any more); `refund` says how and from when the payer takes it back.
   */
  | { kind: 'open'; isPastFillDeadline: boolean; refund: PayStatusRefund }
  /** No deposit of this route in the source transaction, or its escrow was settled to the relayer. */
  | { kind: 'none' }

/**
 * Reads a cross-chain local payment's deposit from the chains (docs/api.md#pay-status-refund): the
 * order from the source transaction's `Deposited` event, its escrow state on the source PayRouter,
 * whether the destination PayRouter filled it, and the refund call the payer's wallet sends once
 * the fill deadline and the settlement window have passed by the source chain's clock (the
 * contract refuses it before). Throws on RPC errors.
 */
export async function readLocalDeposit(input: {
  data: DepositProviderData
  fromChainId: number
  sourceTxHash: Hash
  getClient: (chainId: number) => PublicClient
}): Promise<LocalDepositReading> {
  const source = input.getClient(input.fromChainId)
  const payRouter = input.data.payRouter.toLowerCase() as `0x${string}`
  const receipt = await source.getTransactionReceipt({ hash: input.sourceTxHash }).catch(() => null)
  if (receipt === null || receipt.status !== 'success') return { kind: 'none' }
  const [deposit] = parsePayRouterLogs(receipt.logs, payRouter, 'Deposited')
  if (deposit === undefined) return { kind: 'none' }
  const { orderKey, order } = deposit.args
  const escrow = await readPayRouterDepositState(source, payRouter, orderKey)
  if (escrow === payRouterEscrowState.refunded) {
    const [refunded] = await source.getContractEvents({
      address: payRouter,
      abi: payRouterAbi,
      eventName: 'Refunded',
      args: { orderKey },
      fromBlock: receipt.blockNumber,
      strict: true,
    })
    return { kind: 'refunded', refundTxHash: refunded?.transactionHash ?? null }
  }
  if (escrow !== payRouterEscrowState.open) return { kind: 'none' }
  const destination = input.getClient(Number(order.destinationChainId))
  const destinationPayRouter = input.data.destinationPayRouter.toLowerCase() as `0x${string}`
  if (await readPayRouterFilled(destination, destinationPayRouter, orderKey)) return { kind: 'filled' }
  const [window, sourceBlock, destinationBlock] = await Promise.all([
    readPayRouterSettlementWindow(source, payRouter),
    source.getBlock({ blockTag: 'latest' }),
    destination.getBlock({ blockTag: 'latest' }),
  ])
  // PayRouter.refund requires block.timestamp > fillDeadline + SETTLEMENT_WINDOW.
  const opensAt = order.fillDeadline + window + 1n
  return {
    kind: 'open',
    isPastFillDeadline: destinationBlock.timestamp > order.fillDeadline,
    refund: {
      available: sourceBlock.timestamp >= opensAt,
      availableAt: new Date(Number(opensAt) * 1000).toISOString(),
      // By the source chain's clock, which a devnet's time travel moves away from the wall clock.
      secondsUntilAvailable: Math.max(0, Number(opensAt - sourceBlock.timestamp)),
      contract: payRouter,
      chainId: input.fromChainId,
      functionName: 'refund',
      args: {
        intentId: order.intentId.toLowerCase(),
        sourceChainId: order.sourceChainId.toString(),
        payer: order.payer.toLowerCase(),
        escrowToken: order.escrowToken.toLowerCase(),
        escrowAmount: order.escrowAmount.toString(),
        receiver: order.receiver.toLowerCase(),
        destinationChainId: order.destinationChainId.toString(),
        destinationToken: order.destinationToken.toLowerCase(),
        minAmountOut: order.minAmountOut.toString(),
        fillDeadline: order.fillDeadline.toString(),
      },
      data: encodePayRouterCall({ functionName: 'refund', args: [order] }).toLowerCase(),
      depositor: order.payer.toLowerCase(),
    },
  }
}
