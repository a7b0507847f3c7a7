import type { Hash } from 'viem'
import { encodePayRouterCall } from '../payrouter/encode-pay-router-call.ts'
import { payRouterEscrowState, readPayRouterDepositState } from '../payrouter/read-pay-router-state.ts'
import { recordFillFromChain } from './follow-fill.ts'
import { type RelayerChain, resetRelayerNonce } from './relayer-chain.ts'
import type { RelayerOrder } from './relayer-order.ts'
import {
  extendLease,
  failUnservedDestination,
  ignoreNotFound,
  isFilledOnChain,
  moveTo,
  receiptTimeoutMs,
  type StateStep,
  waitFor,
} from './relayer-step.ts'

/** `filled`: settles the escrow of a filled order once the fill has the destination's confirmation depth. */
export const settleDeposit: StateStep = async (step, deposit) => {
  const { options, source, order } = step
  const destination = step.destination
  if (!destination) return failUnservedDestination(step, deposit)
  // The fill must still be there (a destination reorg may have taken it) and deep enough.
  if (!(await isFilledOnChain(destination, deposit.orderKey))) {
    return moveTo(step, deposit, 'filling', { lastError: 'The fill is no longer on the destination chain' })
  }
  const fillReceipt = deposit.fillTxHash
    ? await destination.client
        .getTransactionReceipt({ hash: deposit.fillTxHash as Hash })
        .catch(ignoreNotFound)
    : undefined
  if (!fillReceipt) return recordFillFromChain(step, deposit, destination)
  const destinationHead = await destination.client.getBlockNumber({ cacheTime: 0 })
  if (destinationHead - fillReceipt.blockNumber < BigInt(destination.confirmations)) {
    return waitFor(step, deposit, options.retryDelayMs)
  }

  const state = await readEscrowState(source, deposit.orderKey)
  if (state === payRouterEscrowState.settled) {
    return moveTo(step, deposit, 'settled', { settledAt: new Date(options.now()), lastError: null })
  }
  if (state !== payRouterEscrowState.open) {
    // Refunded after the fill, or the deposit was reorged away deeper than the confirmation depth:
    // the relayer paid without escrow; people must look.
    const next = await moveTo(step, deposit, 'failed', {
      lastError: `Escrow is in state ${state}; cannot settle after the fill`,
    })
    options.logger.error(
      { intentId: deposit.intentId, orderKey: deposit.orderKey, state },
      'Filled an order whose escrow is not open',
    )
    return next
  }
  const leased = await extendLease(step, deposit)
  const hash = await releaseEscrow(source, 'settle', order)
  options.logger.info({ intentId: deposit.intentId, settleTxHash: hash }, 'Relayer settled an escrow')
  return moveTo(step, leased, 'settled', {
    settleTxHash: hash,
    settledAt: new Date(options.now()),
    lastError: null,
  })
}

/** The source PayRouter's escrow state of an order (payRouterEscrowState). */
export function readEscrowState(chain: RelayerChain, orderKey: string): Promise<number> {
  return readPayRouterDepositState(chain.client, chain.payRouter, orderKey as Hash)
}

/**
 * Sends the source PayRouter's `settle` (escrow to the relayer) or `refund` (to the payer) for an
 * order and waits for it to be mined. Throws when it reverts or is not mined in time; the caller retries.
 */
export async function releaseEscrow(
  source: RelayerChain,
  action: 'settle' | 'refund',
  order: RelayerOrder,
): Promise<Hash> {
  const hash = await source.wallet.sendTransaction({
    to: source.payRouter,
    data: encodePayRouterCall({ functionName: action, args: [order] }),
  })
  const receipt = await source.client
    .waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
    .catch((error) => {
      resetRelayerNonce(source)
      throw error
    })
  if (receipt.status !== 'success')
    throw new Error(`${action === 'settle' ? 'Settle' : 'Refund'} ${hash} reverted`)
  return hash
}
