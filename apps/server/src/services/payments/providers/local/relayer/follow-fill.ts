import type { Hash, PublicClient, TransactionReceipt } from 'viem'
import type { RelayerDeposit } from '../../../../../db/schema.ts'
import { getUniqueViolation } from '../../../../postgres/get-unique-violation.ts'
import { findPayRouterFilledLogs } from '../payrouter/find-pay-router-fill.ts'
import { listPayRouterFilledEvents } from '../payrouter/list-pay-router-filled-events.ts'
import { type RelayerChain, resetRelayerNonce } from './relayer-chain.ts'
import {
  describeError,
  extendLease,
  failUnservedDestination,
  ignoreNotFound,
  isFilledOnChain,
  moveTo,
  receiptTimeoutMs,
  type StateStep,
  type Step,
  waitFor,
} from './relayer-step.ts'

/** `filling`: a fill was signed (and maybe sent) before; follow that transaction rather than send another. */
export const followFill: StateStep = async (step, deposit) => {
  const destination = step.destination
  if (!destination) return failUnservedDestination(step, deposit)
  if (await isFilledOnChain(destination, deposit.orderKey))
    return recordFillFromChain(step, deposit, destination)
  const hash = deposit.fillTxHash as Hash | null
  const outcome = hash ? await readTransactionOutcome(destination.client, hash) : 'unknown'
  if (hash && outcome === 'pending') {
    return awaitFill(step, await extendLease(step, deposit), destination, hash)
  }
  if (hash && outcome === 'success') return awaitFill(step, deposit, destination, hash)
  // Reverted, or it never reached the node: the order is not filled, so the deposit is pending again.
  if (outcome === 'unknown') resetRelayerNonce(destination)
  const next = await moveTo(step, deposit, 'pending', {
    lastError: `Fill ${hash ?? '(none)'} ${outcome === 'reverted' ? 'reverted' : 'was never mined'}`,
  })
  step.options.logger.info(
    { intentId: deposit.intentId, fillTxHash: hash, outcome },
    'Relayer fill did not happen',
  )
  return next
}

/** Waits for a fill's receipt and records it once its `Filled` event shows what the order asked for. */
export async function awaitFill(
  step: Step,
  deposit: RelayerDeposit,
  destination: RelayerChain,
  hash: Hash,
): Promise<RelayerDeposit> {
  const { options } = step
  let receipt: TransactionReceipt
  try {
    receipt = await destination.client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs })
  } catch (error) {
    // Not mined in time (or the RPC failed): the next round follows the same hash.
    resetRelayerNonce(destination)
    return waitFor(step, deposit, options.retryDelayMs, { lastError: describeError(error) })
  }
  if (receipt.status !== 'success') {
    return moveTo(step, deposit, 'pending', {
      lastError: `Fill ${hash} reverted`,
      nextAttemptAt: new Date(options.now() + options.retryDelayMs),
    })
  }
  const fill = readFilledEvent(step, deposit, destination, receipt)
  if ('problem' in fill) {
    const next = await moveTo(step, deposit, 'failed', { lastError: `Fill ${hash}: ${fill.problem}` })
    options.logger.error(
      { intentId: deposit.intentId, fillTxHash: hash, problem: fill.problem },
      'Relayer fill is wrong',
    )
    return next
  }
  options.logger.info(
    {
      intentId: deposit.intentId,
      orderKey: deposit.orderKey,
      fillTxHash: hash,
      chainId: deposit.destinationChainId,
    },
    'Relayer filled an order',
  )
  return moveTo(step, deposit, 'filled', {
    fillTxHash: hash,
    filledAmount: fill.amount.toString(),
    filledAt: new Date(options.now()),
    lastError: null,
  })
}

/** PayRouter says the order is filled: find its `Filled` log, check it, and record it as ours. */
export async function recordFillFromChain(
  step: Step,
  deposit: RelayerDeposit,
  destination: RelayerChain,
): Promise<RelayerDeposit> {
  const { options } = step
  const [log] = await findPayRouterFilledLogs({
    client: destination.client,
    payRouter: destination.payRouter,
    args: { orderKey: deposit.orderKey as Hash },
    fromBlock: deposit.destinationFromBlock === null ? null : BigInt(deposit.destinationFromBlock),
  })
  if (!log) throw new Error(`Order ${deposit.orderKey} is filled, but its Filled log was not found`)
  const receipt = await destination.client.getTransactionReceipt({ hash: log.transactionHash })
  const fill = readFilledEvent(step, deposit, destination, receipt)
  if ('problem' in fill) {
    const next = await moveTo(step, deposit, 'failed', {
      lastError: `Fill ${log.transactionHash}: ${fill.problem}`,
    })
    options.logger.error({ intentId: deposit.intentId, problem: fill.problem }, 'Relayer fill is wrong')
    return next
  }
  try {
    return await moveTo(step, deposit, 'filled', {
      fillTxHash: log.transactionHash,
      filledAmount: fill.amount.toString(),
      filledAt: new Date(options.now()),
      lastError: null,
    })
  } catch (error) {
    if (!getUniqueViolation(error)) throw error
    // Two orders of one intent filled on chain: the database lost track once; people must look.
    const next = await moveTo(step, deposit, 'failed', {
      lastError: 'Filled on chain while another deposit of the intent is filled',
    })
    options.logger.error({ intentId: deposit.intentId }, 'Two deposits of one intent were filled')
    return next
  }
}

/**
 * The `Filled` event of this order in a fill receipt, checked against the order: same key, intent,
 * receiver and token, at least the minimum amount, from this PayRouter and this relayer.
 */
function readFilledEvent(
  step: Step,
  deposit: RelayerDeposit,
  destination: RelayerChain,
  receipt: TransactionReceipt,
): { amount: bigint } | { problem: string } {
  const { order } = step
  const events = listPayRouterFilledEvents(receipt, destination.payRouter, deposit.orderKey)
  const [event] = events
  if (!event || events.length > 1) return { problem: `${events.length} Filled events for the order` }
  const args = event.args
  const problems = [
    args.intentId.toLowerCase() !== order.intentId.toLowerCase() && 'intent id',
    args.receiver.toLowerCase() !== order.receiver.toLowerCase() && 'receiver',
    args.token.toLowerCase() !== order.destinationToken.toLowerCase() && 'token',
    args.amount < order.minAmountOut && 'amount below the minimum',
    args.sourceChainId !== order.sourceChainId && 'source chain',
    args.relayer.toLowerCase() !== destination.wallet.account.address.toLowerCase() && 'relayer',
  ].filter((problem): problem is string => typeof problem === 'string')
  if (problems.length > 0) return { problem: `Filled event differs from the order (${problems.join(', ')})` }
  return { amount: args.amount }
}

/**
 * Whether a transaction hash is mined (success or reverted), still pending, or unknown to the
 * node. Throws on RPC errors other than "not found": an unreachable node proves nothing.
 */
async function readTransactionOutcome(
  client: PublicClient,
  hash: Hash,
): Promise<'success' | 'reverted' | 'pending' | 'unknown'> {
  const receipt = await client.getTransactionReceipt({ hash }).catch(ignoreNotFound)
  if (receipt) return receipt.status === 'success' ? 'success' : 'reverted'
  const transaction = await client.getTransaction({ hash }).catch(ignoreNotFound)
  return transaction ? 'pending' : 'unknown'
}
