import type { RoutingToken } from '@quicklinks/core/api/routing'
import type { AmountEntry, ChainTokenTab, SubmittedPayment } from '../pay/pay-modal-state'

/**
 * The Self Swap's steps (docs/product.md#self-swap): the source chain and token, the target chain
 * and token, the amount, then the pay modal's confirm, processing, success and failure.
 */
export type SwapStep = SwapState['step']

/** The step titles; each is the dialog's accessible name. */
export const swapStepTitles: Record<SwapStep, string> = {
  source: 'Swap From',
  target: 'Swap To',
  amount: 'Swap Amount',
  confirm: 'Confirm Swap',
  processing: 'Swap Progress',
  success: 'Swap Complete',
  failure: 'Swap Failed',
}

/** A chain and token being picked: either still unchosen. */
export type TokenPick = { tab: ChainTokenTab; chainId: number | null; token: RoutingToken | null }

/** Step 1: what to swap from (the wallet's own tokens). The later picks are kept for Back. */
export type SourceStepState = {
  step: 'source'
  pick: TokenPick
  target: RoutingToken | null
  amount: AmountEntry
}

/** Step 2: what to receive; a token other than the source. */
export type TargetStepState = { step: 'target'; source: RoutingToken; pick: TokenPick; amount: AmountEntry }

/** Steps 3–4: the amount of the source token, then review, approve and send. */
export type AmountStepState = {
  step: 'amount'
  source: RoutingToken
  target: RoutingToken
  amount: AmountEntry
}
export type ConfirmStepState = {
  step: 'confirm'
  source: RoutingToken
  target: RoutingToken
  amount: AmountEntry
}

/** Steps 5–6: the sent swap, followed until it ends; then done. */
export type ProcessingStepState = {
  step: 'processing'
  source: RoutingToken
  target: RoutingToken
  amount: AmountEntry
  payment: SubmittedPayment
}
export type SuccessStepState = Omit<ProcessingStepState, 'step'> & { step: 'success' }

/** Step 7: the swap failed, with the reason when one is known. */
export type FailureStepState = { step: 'failure'; payment: SubmittedPayment; failureMessage: string | null }

/** The Self Swap's state: one variant per step, each with exactly the data that step has. */
export type SwapState =
  | SourceStepState
  | TargetStepState
  | AmountStepState
  | ConfirmStepState
  | ProcessingStepState
  | SuccessStepState
  | FailureStepState

/** Everything that can happen to the Self Swap; `reduceSwap` refuses what a step does not allow. */
export type SwapAction =
  | { type: 'open' }
  | { type: 'back' }
  | { type: 'setTab'; tab: ChainTokenTab }
  | { type: 'selectChain'; chainId: number }
  | { type: 'selectToken'; token: RoutingToken }
  | { type: 'continue' }
  | { type: 'setAmount'; text: string; unit?: AmountEntry['unit'] }
  | { type: 'next' }
  | { type: 'submitted'; payment: SubmittedPayment }
  | { type: 'receiptPosted'; txHash: string }
  | { type: 'succeeded' }
  | { type: 'failed'; message: string | null }

/** Every open starts here: nothing chosen. */
export const initialSwapState: SwapState = {
  step: 'source',
  pick: { tab: 'chains', chainId: null, token: null },
  target: null,
  amount: { text: '', unit: 'TOKEN' },
}
