import type { RoutingToken } from '@quicklinks/core/api/routing'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import type { ChainTokenTab } from '../pay/pay-modal-state'
import { initialSwapState, type SwapAction, type SwapState, type TokenPick } from './swap-state'

/** The same token on the same chain: a swap needs two different ones. */
export function isSameToken(left: RoutingToken, right: RoutingToken): boolean {
  return left.chainId === right.chainId && isSameTokenAddress(left.address, right.address)
}

function pickOf(token: RoutingToken | null, tab: ChainTokenTab): TokenPick {
  return { tab, chainId: token?.chainId ?? null, token }
}

function updatePick(pick: TokenPick, action: SwapAction): TokenPick {
  switch (action.type) {
    case 'setTab':
      return pick.tab === action.tab ? pick : { ...pick, tab: action.tab }
    case 'selectChain':
      return {
        tab: 'tokens',
        chainId: action.chainId,
        token: pick.chainId === action.chainId ? pick.token : null,
      }
    case 'selectToken':
      return action.token.chainId === pick.chainId ? { ...pick, token: action.token } : pick
    default:
      return pick
  }
}

/**
 * The Self Swap's transitions, the only way its state changes: source → target → amount → confirm
 * → processing → success or failure, Back one step at a time up to confirm. An action the current
 * step does not allow is refused (the same state comes back). The target may not be the source
 * token itself. Side effects (sending, tracking) stay in the components.
 */
export function reduceSwap(state: SwapState, action: SwapAction): SwapState {
  switch (action.type) {
    case 'open':
      return initialSwapState
    case 'back':
      switch (state.step) {
        case 'target':
          return {
            step: 'source',
            pick: pickOf(state.source, 'tokens'),
            target: state.pick.token,
            amount: state.amount,
          }
        case 'amount':
          return {
            step: 'target',
            source: state.source,
            pick: pickOf(state.target, 'tokens'),
            amount: state.amount,
          }
        case 'confirm':
          return { step: 'amount', source: state.source, target: state.target, amount: state.amount }
        default:
          // Source, success and failure close the dialog; processing ignores Back.
          return state
      }
    case 'setTab':
    case 'selectChain':
    case 'selectToken': {
      if (state.step !== 'source' && state.step !== 'target') return state
      const pick = updatePick(state.pick, action)
      return pick === state.pick ? state : { ...state, pick }
    }
    case 'continue': {
      if (state.step === 'source') {
        const source = state.pick.token
        if (source === null) return state
        const target = state.target !== null && !isSameToken(state.target, source) ? state.target : null
        return {
          step: 'target',
          source,
          pick:
            target === null
              ? { tab: 'chains', chainId: source.chainId, token: null }
              : pickOf(target, 'tokens'),
          amount: state.amount,
        }
      }
      if (state.step === 'target') {
        const target = state.pick.token
        if (target === null || isSameToken(target, state.source)) return state
        return { step: 'amount', source: state.source, target, amount: state.amount }
      }
      return state
    }
    case 'setAmount':
      if (state.step !== 'amount') return state
      return { ...state, amount: { text: action.text, unit: action.unit ?? state.amount.unit } }
    case 'next':
      if (state.step !== 'amount') return state
      return { ...state, step: 'confirm' }
    case 'submitted':
      if (state.step !== 'confirm') return state
      return { ...state, step: 'processing', payment: action.payment }
    case 'receiptPosted':
      if (state.step !== 'processing' && state.step !== 'success' && state.step !== 'failure') return state
      if (state.payment.txHash !== action.txHash || state.payment.isReceiptPosted) return state
      return { ...state, payment: { ...state.payment, isReceiptPosted: true } }
    case 'succeeded':
      if (state.step !== 'processing') return state
      return { ...state, step: 'success' }
    case 'failed':
      if (state.step !== 'processing') return state
      return { step: 'failure', payment: state.payment, failureMessage: action.message }
    default: {
      const unknownAction: never = action
      return unknownAction
    }
  }
}
