import type {
  SmartSendProgress,
  SmartSendResult,
  SponsorRefusalReason,
} from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import type { Address } from 'viem'
import type { SendForm } from './validate-send'

/** A token the account can send, with its balance there (null while unknown). */
export type SendDialogToken = { address: string; symbol: string; decimals: number; balance: bigint | null }

/** A chain the account can send on. */
export type SendDialogChain = {
  chainId: number
  name: string
  /** The sponsor service pays gas here (under the default policy). */
  sponsored: boolean
  nativeSymbol: string
  tokens: SendDialogToken[]
}

/** One stage of a send's progress, as the smart wallet reports it. */
export type SendStep = SmartSendProgress['step']

/** Where the Send dialog is: the form (with a failure under it), a send on its way, or its outcome. */
export type SendPhase =
  | { name: 'form' }
  | { name: 'sending'; sponsored: boolean; step: SendStep }
  | { name: 'sent'; result: SmartSendResult; amount: bigint; recipient: Address; isRefreshing: boolean }
  | { name: 'refused'; reason: SponsorRefusalReason; message: string }
  | { name: 'failed'; message: string }

/** The Send dialog's state: the form as typed (kept through every phase, so Back finds it) and the phase. */
export type SendDialogState = {
  /** `tokenKey` of the chosen token, '' when the wallet has none. */
  selectedKey: string
  form: SendForm
  /** Fields whose problems show: left once, or every field after a submit. */
  touched: Partial<Record<keyof SendForm, boolean>>
  phase: SendPhase
}

export type SendDialogAction =
  | { type: 'selectToken'; key: string }
  | { type: 'edit'; field: keyof SendForm; value: string }
  | { type: 'leave'; field: keyof SendForm }
  | { type: 'submit' }
  | { type: 'progress'; sponsored: boolean; step: SendStep }
  | { type: 'sent'; result: SmartSendResult; amount: bigint; recipient: Address }
  | { type: 'refreshed' }
  | { type: 'refused'; reason: SponsorRefusalReason; message: string }
  | { type: 'failed'; message: string }
  | { type: 'back' }

/** The key of a token of a chain in the token select (`chainId:address`, the address lower-cased). */
export const tokenKey = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`

/** A fresh form on `selectedKey`. */
export function createSendDialogState(selectedKey: string): SendDialogState {
  return { selectedKey, form: { amount: '', recipient: '' }, touched: {}, phase: { name: 'form' } }
}

/** The Send dialog's transitions; a send's progress, outcome and the balance refresh after it. */
export function reduceSendDialog(state: SendDialogState, action: SendDialogAction): SendDialogState {
  switch (action.type) {
    case 'selectToken':
      return { ...state, selectedKey: action.key }
    case 'edit':
      return { ...state, form: { ...state.form, [action.field]: action.value } }
    case 'leave':
      return { ...state, touched: { ...state.touched, [action.field]: true } }
    case 'submit':
      return { ...state, touched: { amount: true, recipient: true } }
    case 'progress':
      return { ...state, phase: { name: 'sending', sponsored: action.sponsored, step: action.step } }
    case 'sent':
      return {
        ...state,
        phase: {
          name: 'sent',
          result: action.result,
          amount: action.amount,
          recipient: action.recipient,
          isRefreshing: true,
        },
      }
    case 'refreshed':
      return state.phase.name === 'sent'
        ? { ...state, phase: { ...state.phase, isRefreshing: false } }
        : state
    case 'refused':
      return { ...state, phase: { name: 'refused', reason: action.reason, message: action.message } }
    case 'failed':
      return { ...state, phase: { name: 'failed', message: action.message } }
    case 'back':
      return { ...state, phase: { name: 'form' } }
    default: {
      const unknownAction: never = action
      return unknownAction
    }
  }
}
