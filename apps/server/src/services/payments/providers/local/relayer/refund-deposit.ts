import { payRouterEscrowState, readPayRouterSettlementWindow } from '../payrouter/read-pay-router-state.ts'
import { checkDepositCanonical } from './check-deposit-canonical.ts'
import { recordFillFromChain } from './follow-fill.ts'
import {
  extendLease,
  getChainTime,
  isFilledOnChain,
  moveTo,
  type StateStep,
  waitFor,
} from './relayer-step.ts'
import { readEscrowState, releaseEscrow, settleDeposit } from './settle-deposit.ts'

/**
 * `refund_pending`: a matched deposit the relayer will not fill. Settle it after all if a fill
 * landed, otherwise refund it to its payer once the source chain's clock is past the deadline and
 * the settlement window.
 */
export const refundDeposit: StateStep = async (step, deposit) => {
  const { options, source, order } = step
  const destination = step.destination
  if (destination && (await isFilledOnChain(destination, deposit.orderKey))) {
    const recorded = await recordFillFromChain(step, deposit, destination)
    return recorded.state === 'filled' ? settleDeposit(step, recorded) : recorded
  }
  const state = await readEscrowState(source, deposit.orderKey)
  if (state === payRouterEscrowState.refunded) {
    return moveTo(step, deposit, 'refunded', { refundedAt: new Date(options.now()) })
  }
  if (state === payRouterEscrowState.none) {
    const check = await checkDepositCanonical(step, deposit)
    if (check.isCanonical) throw new Error(`Escrow of order ${deposit.orderKey} is unknown to PayRouter`)
    return check.deposit
  }
  if (state !== payRouterEscrowState.open) {
    return moveTo(step, deposit, 'failed', { lastError: `Escrow is in state ${state}; nothing to refund` })
  }
  const settlementWindow = await readPayRouterSettlementWindow(source.client, source.payRouter)
  const chainTime = await getChainTime(source.client)
  const opensAt = deposit.fillDeadline + Number(settlementWindow) + 1
  if (chainTime < opensAt) return waitFor(step, deposit, (opensAt - chainTime) * 1000)
  const leased = await extendLease(step, deposit)
  const hash = await releaseEscrow(source, 'refund', order)
  options.logger.info(
    { intentId: deposit.intentId, refundTxHash: hash },
    'Relayer refunded an unfilled deposit',
  )
  return moveTo(step, leased, 'refunded', {
    refundTxHash: hash,
    refundedAt: new Date(options.now()),
    lastError: null,
  })
}
