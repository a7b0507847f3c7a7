import {
  type AmountStepState,
  type ChainTokenStepState,
  type ConfirmStepState,
  initialPayModalState,
  type PayDraft,
  type PayModalAction,
  type PayModalState,
  type WalletStepState,
} from './pay-modal-state'

function toChainToken(draft: PayDraft): ChainTokenStepState {
  return { step: 'chainToken', tab: 'chains', ...draft }
}

/** The wallet step, keeping what the payer chose on steps 1–3 for the next connect. */
function toWallet(
  state: WalletStepState | ChainTokenStepState | AmountStepState | ConfirmStepState,
  hasAutoAdvanced: boolean,
): WalletStepState {
  if (state.step === 'wallet') return { ...state, hasAutoAdvanced }
  const draft: PayDraft =
    state.step === 'chainToken'
      ? { chainId: state.chainId, token: state.token, amount: state.amount }
      : { chainId: state.token.chainId, token: state.token, amount: state.amount }
  return { step: 'wallet', hasAutoAdvanced, draft }
}

/**
 * The pay modal's transitions (docs/product.md#pay-modal-transitions), the only way its state changes. An
 * action the current step does not allow is refused: the same state comes back, so React renders nothing new.
 * Side effects (connecting, switching chains, sending) stay in the components.
 */
export function reducePayModal(state: PayModalState, action: PayModalAction): PayModalState {
  switch (action.type) {
    case 'open':
      return initialPayModalState
    case 'connected':
      if (state.step !== 'wallet' || state.hasAutoAdvanced) return state
      return toChainToken(state.draft)
    case 'resume':
      return state.step === 'wallet' ? toChainToken(state.draft) : state
    case 'disconnected':
      // A wallet that disconnects on steps 1–3 sends the payer back to step 0.
      if (state.step === 'wallet') return state.hasAutoAdvanced ? toWallet(state, false) : state
      if (state.step === 'chainToken' || state.step === 'amount' || state.step === 'confirm') {
        return toWallet(state, false)
      }
      return state
    case 'back':
      switch (state.step) {
        case 'chainToken':
          // The wallet is still connected until its disconnect lands: no automatic advance before.
          return toWallet(state, true)
        case 'amount':
          return {
            step: 'chainToken',
            tab: 'tokens',
            chainId: state.token.chainId,
            token: state.token,
            amount: state.amount,
          }
        case 'confirm':
          return { step: 'amount', token: state.token, amount: state.amount }
        default:
          // Wallet, success and failure close the modal; processing ignores Back (getPayBackOutcome).
          return state
      }
    case 'setTab':
      if (state.step !== 'chainToken' || state.tab === action.tab) return state
      return { ...state, tab: action.tab }
    case 'selectChain':
      if (state.step !== 'chainToken') return state
      return {
        ...state,
        chainId: action.chainId,
        token: state.chainId === action.chainId ? state.token : null,
        tab: 'tokens',
      }
    case 'selectToken':
      if (state.step !== 'chainToken' || action.token.chainId !== state.chainId) return state
      return { ...state, token: action.token }
    case 'continue':
      if (state.step !== 'chainToken' || state.token === null) return state
      return { step: 'amount', token: state.token, amount: state.amount }
    case 'setAmount':
      if (state.step !== 'amount') return state
      return { ...state, amount: { text: action.text, unit: action.unit ?? state.amount.unit } }
    case 'next':
      if (state.step !== 'amount') return state
      return { step: 'confirm', token: state.token, amount: state.amount }
    case 'submitted':
      if (state.step !== 'confirm') return state
      return { step: 'processing', token: state.token, amount: state.amount, payment: action.payment }
    case 'receiptPosted':
      if (state.step !== 'processing' && state.step !== 'success' && state.step !== 'failure') return state
      if (state.payment.txHash !== action.txHash || state.payment.isReceiptPosted) return state
      return { ...state, payment: { ...state.payment, isReceiptPosted: true } }
    case 'succeeded':
      if (state.step !== 'processing') return state
      return { ...state, step: 'success', record: action.record }
    case 'failed':
      if (state.step !== 'processing') return state
      return { step: 'failure', payment: state.payment, failureMessage: action.message }
    default: {
      const unknownAction: never = action
      return unknownAction
    }
  }
}
