import type { RoutingToken } from '@quicklinks/core/api/routing'
import type { AmountUnit } from './pay-amount'
import type { TransactionRecord } from './transaction-record'

/**
 * The pay modal's seven steps (docs/product.md#pay-modal-steps, numbered 0–6 there): wallet, chain and token,
 * amount, confirm, processing, success, failure.
 */
export type PayStep = PayModalState['step']

/** The step titles; each is the dialog's accessible name (docs/product.md#pay-modal-rules). */
export const payStepTitles: Record<PayStep, string> = {
  wallet: 'Select Your Wallet',
  chainToken: 'Select Chain & Token',
  amount: 'Select Amount',
  confirm: 'Confirm Payment',
  processing: 'Payment Confirmation',
  success: 'Payment Successful',
  failure: 'Payment Failed',
}

/** The payment sent on the confirm step, followed on the processing step. */
export type SubmittedPayment = {
  intentId: string
  txHash: string
  fromChainId: number
  payer: string
  submittedAtMs: number
  /** POST /api/route-intent/{intentId}/receipt has answered (or failed): step 4 polls from then on. */
  isReceiptPosted: boolean
}

/** The amount as typed, in the unit it was typed in. */
export type AmountEntry = { text: string; unit: AmountUnit }

/** The tab shown on the chain and token step. */
export type ChainTokenTab = 'chains' | 'tokens'

/**
 * What the payer chose on the chain, token and amount steps before going back to the wallet step
 * (Back or a wallet that disconnected): the next connect finds it again.
 */
export type PayDraft = { chainId: number | null; token: RoutingToken | null; amount: AmountEntry }

/** Step 0: choose and connect a wallet. */
export type WalletStepState = {
  step: 'wallet'
  /** A connect advances once (docs/product.md#pay-modal-transitions); false again only after a disconnect. */
  hasAutoAdvanced: boolean
  draft: PayDraft
}

/** Step 1: chain and token, either still unchosen. */
export type ChainTokenStepState = {
  step: 'chainToken'
  tab: ChainTokenTab
  chainId: number | null
  /** A token of `chainId`; null until one is picked. */
  token: RoutingToken | null
  amount: AmountEntry
}

/** Step 2: the amount, in the chosen token (which names its chain). */
export type AmountStepState = { step: 'amount'; token: RoutingToken; amount: AmountEntry }

/** Step 3: review, approve and send. */
export type ConfirmStepState = { step: 'confirm'; token: RoutingToken; amount: AmountEntry }

/** Step 4: the sent payment, followed until it ends. */
export type ProcessingStepState = {
  step: 'processing'
  token: RoutingToken
  amount: AmountEntry
  payment: SubmittedPayment
}

/** Step 5: the payment arrived. */
export type SuccessStepState = {
  step: 'success'
  token: RoutingToken
  amount: AmountEntry
  payment: SubmittedPayment
  /** The verified record that ended the payment: what the receiver got, both transactions. */
  record: TransactionRecord | null
}

/** Step 6: the payment failed, with the reason when one is known. */
export type FailureStepState = {
  step: 'failure'
  payment: SubmittedPayment
  failureMessage: string | null
}

/** The pay modal's state: one variant per step, each with exactly the data that step has. */
export type PayModalState =
  | WalletStepState
  | ChainTokenStepState
  | AmountStepState
  | ConfirmStepState
  | ProcessingStepState
  | SuccessStepState
  | FailureStepState

/** Everything that can happen to the pay modal; `reducePayModal` refuses what a step does not allow. */
export type PayModalAction =
  | { type: 'open' }
  | { type: 'connected' }
  /** The payer picked the wallet that is already connected (a disconnect that never landed). */
  | { type: 'resume' }
  | { type: 'disconnected' }
  | { type: 'back' }
  | { type: 'setTab'; tab: ChainTokenTab }
  | { type: 'selectChain'; chainId: number }
  | { type: 'selectToken'; token: RoutingToken }
  | { type: 'continue' }
  | { type: 'setAmount'; text: string; unit?: AmountUnit }
  | { type: 'next' }
  | { type: 'submitted'; payment: SubmittedPayment }
  /** The receipt post of the transaction `txHash` settled (an older payment's is ignored). */
  | { type: 'receiptPosted'; txHash: string }
  /** The payment's verified record says success (null: a caller that has none). */
  | { type: 'succeeded'; record: TransactionRecord | null }
  | { type: 'failed'; message: string | null }

/** Every open starts here (docs/product.md#pay-modal-rules): the wallet step with nothing chosen. */
export const initialPayModalState: PayModalState = {
  step: 'wallet',
  hasAutoAdvanced: false,
  draft: { chainId: null, token: null, amount: { text: '', unit: 'TOKEN' } },
}
