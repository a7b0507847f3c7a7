import type { RelayerDeposit } from '../../../../../db/schema.ts'
import { followFill } from './follow-fill.ts'
import { refundDeposit } from './refund-deposit.ts'
import { updateRelayerDeposit } from './relayer-deposits-repository.ts'
import { buildRelayerOrder } from './relayer-order.ts'
import {
  describeError,
  type ProcessRelayerDepositOptions,
  type StateStep,
  type Step,
} from './relayer-step.ts'
import { settleDeposit } from './settle-deposit.ts'
import { takePendingDeposit } from './take-pending-deposit.ts'

export { depositLeaseMs } from './relayer-deposits-repository.ts'
export { fillSafetySeconds, type ProcessRelayerDepositOptions, receiptTimeoutMs } from './relayer-step.ts'

/**
 * The states a round moves a deposit through, in this order within one call: following a fill
 * that may fall back to pending, taking a pending deposit (which may fill it), settling a filled
 * one, refunding one that will not be filled.
 */
const stateSteps: readonly [RelayerDeposit['state'], StateStep][] = [
  ['filling', followFill],
  ['pending', takePendingDeposit],
  ['filled', settleDeposit],
  ['refund_pending', refundDeposit],
]

/**
 * Moves one claimed deposit along pending → filling → filled → settled, or to refund_pending →
 * refunded when its matched order cannot be filled in time, or to ignored (no stored route intent
 * asked for exactly this deposit) or orphaned (its block was reorged away). It only fills a
 * deposit that matches its route intent, has the source chain's confirmation depth on top and is
 * still in the canonical chain right before the fill; at most one deposit per intent id is filled.
 * 'filling' is written with the signed fill's hash before it is broadcast, so a restart follows
 * that transaction instead of sending another, and a fill is settled only once its receipt's
 * `Filled` event says what the order asked for. Step failures are stored (last_error) and retried
 * with exponential backoff; throws only on database errors.
 */
export async function processRelayerDeposit(
  options: ProcessRelayerDepositOptions,
  deposit: RelayerDeposit,
): Promise<void> {
  const source = options.chains.get(deposit.sourceChainId)
  if (!source) {
    await updateRelayerDeposit(
      options.db,
      deposit,
      { state: 'failed', lastError: `Chain ${deposit.sourceChainId} is not served by this relayer` },
      options.now(),
    )
    return
  }
  const step: Step = {
    options,
    order: buildRelayerOrder(deposit),
    source,
    destination: options.chains.get(deposit.destinationChainId),
    last: deposit,
  }
  try {
    let row = deposit
    for (const [state, stateStep] of stateSteps) {
      if (row.state === state) row = await stateStep(step, row)
    }
  } catch (error) {
    const last = step.last
    options.logger.warn(
      { err: error, intentId: last.intentId, orderKey: last.orderKey, state: last.state },
      'Relayer step failed; retrying with backoff',
    )
    const delayMs = Math.min(options.retryDelayMs * 2 ** Math.min(last.attempts, 20), options.maxRetryDelayMs)
    await updateRelayerDeposit(
      options.db,
      last,
      {
        attempts: last.attempts + 1,
        lastError: describeError(error),
        nextAttemptAt: new Date(options.now() + delayMs),
      },
      options.now(),
    )
  }
}
