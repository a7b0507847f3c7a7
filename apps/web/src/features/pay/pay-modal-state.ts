import type { AmountUnit } from './pay-amount'

/** SPEC §2: 0 wallet, 1 chain and token, 2 amount, 3 confirm, 4 processing, 5 success, 6 failure. */
export type PayStep = 0 | 1 | 2 | 3 | 4 | 5 | 6

/** SPEC §2 step titles; each is the dialog's accessible name. */
export const payStepTitles: Record<PayStep, string> = {
  0: 'Select Your Wallet',
  1: 'Select Chain & Token',
  2: 'Select Amount',
  3: 'Confirm Payment',
  4: 'Payment Confirmation',
  5: 'Payment Successful',
  6: 'Payment Failed',
}

/** The payment sent on step 3, followed on step 4. */
export type SubmittedPayment = {
  intentId: string
  txHash: string
  fromChainId: number
  payer: string
  submittedAtMs: number
  /** POST /api/route-intent/{intentId}/receipt has answered (or failed): step 4 polls from then on. */
  isReceiptPosted: boolean
}

export type PayModalState = {
  step: PayStep
  tab: 'chains' | 'tokens'
  chainId: number | null
  tokenAddress: string | null
  amountText: string
  unit: AmountUnit
  /** SPEC §2: a connect advances from step 0 once; a return to step 0 allows it again. */
  hasAutoAdvanced: boolean
  payment: SubmittedPayment | null
  failureMessage: string | null
}

export type PayModalAction =
  | { type: 'open' }
  | { type: 'connected' }
  /** The payer picked the wallet that is already connected (a disconnect that never landed). */
  | { type: 'resume' }
  | { type: 'disconnected' }
  | { type: 'back' }
  | { type: 'setTab'; tab: PayModalState['tab'] }
  | { type: 'selectChain'; chainId: number }
  | { type: 'selectToken'; tokenAddress: string }
  | { type: 'continue' }
  | { type: 'setAmount'; text: string; unit?: AmountUnit }
  | { type: 'next' }
  | { type: 'submitted'; payment: SubmittedPayment }
  /** The receipt post of the transaction `txHash` settled (an older payment's is ignored). */
  | { type: 'receiptPosted'; txHash: string }
  | { type: 'succeeded' }
  | { type: 'failed'; message: string | null }

export const initialPayModalState: PayModalState = {
  step: 0,
  tab: 'chains',
  chainId: null,
  tokenAddress: null,
  amountText: '',
  unit: 'TOKEN',
  hasAutoAdvanced: false,
  payment: null,
  failureMessage: null,
}

/**
 * What Back, a backdrop click and Escape do on each step (SPEC §2 modal rules): close (disconnecting
 * the wallet) from 0, 5 and 6; disconnect and return to 0 from 1; one step back from 2 and 3;
 * nothing during step 4.
 */
export type BackOutcome = 'close' | 'disconnect' | 'previous' | 'none'

export function getBackOutcome(step: PayStep): BackOutcome {
  switch (step) {
    case 0:
    case 5:
    case 6:
      return 'close'
    case 1:
      return 'disconnect'
    case 2:
    case 3:
      return 'previous'
    case 4:
      return 'none'
    default: {
      const unknownStep: never = step
      return unknownStep
    }
  }
}

/** True on the steps where a disconnecting wallet sends the payer back to step 0 (SPEC: 1–3). */
export function isWalletStep(step: PayStep): boolean {
  return step >= 1 && step <= 3
}

/** The pay modal's transitions (SPEC §4 "Pay modal"); side effects stay in the component. */
export function reducePayModal(state: PayModalState, action: PayModalAction): PayModalState {
  switch (action.type) {
    case 'open':
      return initialPayModalState
    case 'connected':
      if (state.step !== 0 || state.hasAutoAdvanced) return state
      return { ...state, step: 1, tab: 'chains', hasAutoAdvanced: true }
    case 'resume':
      return state.step === 0 ? { ...state, step: 1, tab: 'chains', hasAutoAdvanced: true } : state
    case 'disconnected':
      if (state.step === 0) return state.hasAutoAdvanced ? { ...state, hasAutoAdvanced: false } : state
      if (!isWalletStep(state.step)) return state
      return { ...state, step: 0, hasAutoAdvanced: false }
    case 'back':
      switch (getBackOutcome(state.step)) {
        case 'disconnect':
          // The wallet is still connected until its disconnect lands: no automatic advance before.
          return { ...state, step: 0, hasAutoAdvanced: true }
        case 'previous':
          return { ...state, step: state.step === 3 ? 2 : 1 }
        default:
          return state
      }
    case 'setTab':
      return { ...state, tab: action.tab }
    case 'selectChain':
      return {
        ...state,
        chainId: action.chainId,
        tokenAddress: state.chainId === action.chainId ? state.tokenAddress : null,
        tab: 'tokens',
      }
    case 'selectToken':
      return { ...state, tokenAddress: action.tokenAddress }
    case 'continue':
      if (state.step !== 1 || state.chainId === null || state.tokenAddress === null) return state
      return { ...state, step: 2 }
    case 'setAmount':
      return { ...state, amountText: action.text, unit: action.unit ?? state.unit }
    case 'next':
      return state.step === 2 ? { ...state, step: 3 } : state
    case 'submitted':
      return state.step === 3 ? { ...state, step: 4, payment: action.payment } : state
    case 'receiptPosted':
      if (state.payment === null || state.payment.txHash !== action.txHash || state.payment.isReceiptPosted) {
        return state
      }
      return { ...state, payment: { ...state.payment, isReceiptPosted: true } }
    case 'succeeded':
      return state.step === 4 ? { ...state, step: 5 } : state
    case 'failed':
      return state.step === 4 ? { ...state, step: 6, failureMessage: action.message } : state
    default: {
      const unknownAction: never = action
      return unknownAction
    }
  }
}
