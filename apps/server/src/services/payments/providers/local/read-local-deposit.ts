import { payRouterAbi } from '@quicklinks/contracts/generated/pay-router'
import type { Hash, PublicClient } from 'viem'
import type { EscrowReading } from '../../route/routing-provider.ts'
import type { LocalProviderData } from './local-provider-data.ts'
import { encodePayRouterCall } from './payrouter/encode-pay-router-call.ts'
import { parsePayRouterLogs } from './payrouter/parse-pay-router-logs.ts'
import {
  payRouterEscrowState,
  readPayRouterDepositState,
  readPayRouterFilled,
  readPayRouterSettlementWindow,
} from './payrouter/read-pay-router-state.ts'

/**
 * Reads a cross-chain local payment's deposit from the chains (docs/api.md#pay-status-refund): the
 * order from the source transaction's `Deposited` event, its escrow state on the source PayRouter,
 * whether the destination PayRouter filled it, and the refund call the payer's wallet sends once
 * the fill deadline and the settlement window have passed by the source chain's clock (the
 * contract refuses it before). Anything but a deposit has no escrow. Throws on RPC errors.
 */
export async function readLocalDeposit(input: {
  data: LocalProviderData
  fromChainId: number
  sourceTxHash: Hash
  getClient: (chainId: number) => PublicClient
}): Promise<EscrowReading> {
  if (input.data.kind !== 'deposit') return { kind: 'none' }
  const source = input.getClient(input.fromChainId)
  const data = input.data
  const payRouter = data.payRouter.toLowerCase() as `0x${string}`
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
  const destinationPayRouter = data.destinationPayRouter.toLowerCase() as `0x${string}`
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
