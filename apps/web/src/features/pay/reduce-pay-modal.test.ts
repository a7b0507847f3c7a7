import type { RoutingToken } from '@quicklinks/core/api/routing'
import { describe, expect, it } from 'vitest'
import { getPayBackOutcome } from './get-pay-back-outcome'
import {
  type AmountEntry,
  initialPayModalState,
  type PayModalAction,
  type PayModalState,
  type PayStep,
  type SubmittedPayment,
} from './pay-modal-state'
import { reducePayModal } from './reduce-pay-modal'

function run(actions: PayModalAction[], state: PayModalState = initialPayModalState): PayModalState {
  return actions.reduce(reducePayModal, state)
}

const token: RoutingToken = {
  chainId: 8453,
  address: '0xa',
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  type: 'evm',
  logoURI: '',
  active: true,
  visible: true,
  usdPrice: 1,
}
const otherToken: RoutingToken = { ...token, address: '0xb', symbol: 'USDT' }
const avalancheToken: RoutingToken = { ...token, chainId: 43114 }
const amount: AmountEntry = { text: '1.5', unit: 'TOKEN' }
const payment: SubmittedPayment = {
  intentId: '0x1',
  txHash: '0x2',
  fromChainId: 8453,
  payer: '0x3',
  submittedAtMs: 0,
  isReceiptPosted: false,
}

/** One state of each step, as the payer reaches it. */
const states: Record<PayStep, PayModalState> = {
  wallet: initialPayModalState,
  chainToken: { step: 'chainToken', tab: 'tokens', chainId: 8453, token, amount },
  amount: { step: 'amount', token, amount },
  confirm: { step: 'confirm', token, amount },
  processing: { step: 'processing', token, amount, payment },
  success: { step: 'success', token, amount, payment, record: null },
  failure: { step: 'failure', payment, failureMessage: 'reverted' },
}
const steps = Object.keys(states) as PayStep[]

/** Every action once, for the refusal sweep. */
const everyAction: PayModalAction[] = [
  { type: 'open' },
  { type: 'connected' },
  { type: 'resume' },
  { type: 'disconnected' },
  { type: 'back' },
  { type: 'setTab', tab: 'chains' },
  { type: 'selectChain', chainId: 43114 },
  { type: 'selectToken', token: otherToken },
  { type: 'continue' },
  { type: 'setAmount', text: '2' },
  { type: 'next' },
  { type: 'submitted', payment: { ...payment, txHash: '0x9' } },
  { type: 'receiptPosted', txHash: '0x2' },
  { type: 'succeeded', record: null },
  { type: 'failed', message: null },
]

/** The actions each step accepts; every other one must leave its state untouched. */
const accepted: Record<PayStep, PayModalAction['type'][]> = {
  wallet: ['connected', 'resume'],
  chainToken: ['disconnected', 'back', 'setTab', 'selectChain', 'selectToken', 'continue'],
  amount: ['disconnected', 'back', 'setAmount', 'next'],
  confirm: ['disconnected', 'back', 'submitted'],
  processing: ['receiptPosted', 'succeeded', 'failed'],
  success: ['receiptPosted'],
  failure: ['receiptPosted'],
}

describe('reducePayModal', () => {
  it('refuses every action a step does not allow, returning the very same state', () => {
    for (const step of steps) {
      for (const action of everyAction) {
        if (action.type === 'open' || accepted[step].includes(action.type)) continue
        expect(reducePayModal(states[step], action), `${action.type} on ${step}`).toBe(states[step])
      }
    }
  })

  it('starts over on the wallet step on every open, whatever the step', () => {
    for (const step of steps)
      expect(reducePayModal(states[step], { type: 'open' })).toEqual(initialPayModalState)
  })

  it('advances from the wallet step once on connect, to the chains tab', () => {
    const connected = run([{ type: 'connected' }])
    expect(connected).toEqual({
      step: 'chainToken',
      tab: 'chains',
      chainId: null,
      token: null,
      amount: { text: '', unit: 'TOKEN' },
    })
    const back = run([{ type: 'back' }], connected)
    expect(back).toMatchObject({ step: 'wallet', hasAutoAdvanced: true })
    expect(reducePayModal(back, { type: 'connected' })).toBe(back)
  })

  it('allows another automatic advance after the wallet disconnected', () => {
    const back = run([{ type: 'connected' }, { type: 'back' }, { type: 'disconnected' }])
    expect(back).toMatchObject({ step: 'wallet', hasAutoAdvanced: false })
    expect(reducePayModal(back, { type: 'connected' }).step).toBe('chainToken')
    // A disconnect on the wallet step that already allows the advance changes nothing.
    expect(reducePayModal(initialPayModalState, { type: 'disconnected' })).toBe(initialPayModalState)
  })

  it('resumes with a wallet that is still connected when the payer picks it again', () => {
    const back = run([{ type: 'connected' }, { type: 'back' }])
    expect(reducePayModal(back, { type: 'resume' }).step).toBe('chainToken')
  })

  it('returns to the wallet step when the wallet disconnects on steps 1 to 3, keeping the choices', () => {
    for (const step of ['chainToken', 'amount', 'confirm'] as const) {
      const disconnected = reducePayModal(states[step], { type: 'disconnected' })
      expect(disconnected).toEqual({
        step: 'wallet',
        hasAutoAdvanced: false,
        draft: { chainId: 8453, token, amount },
      })
      expect(reducePayModal(disconnected, { type: 'connected' })).toEqual({
        step: 'chainToken',
        tab: 'chains',
        chainId: 8453,
        token,
        amount,
      })
    }
    for (const step of ['processing', 'success', 'failure'] as const)
      expect(reducePayModal(states[step], { type: 'disconnected' })).toBe(states[step])
  })

  it('follows the back rules of each step', () => {
    expect(steps.map(getPayBackOutcome)).toEqual([
      'close',
      'disconnect',
      'previous',
      'previous',
      'none',
      'close',
      'close',
    ])
    expect(reducePayModal(states.chainToken, { type: 'back' })).toEqual({
      step: 'wallet',
      hasAutoAdvanced: true,
      draft: { chainId: 8453, token, amount },
    })
    expect(reducePayModal(states.amount, { type: 'back' })).toEqual(states.chainToken)
    expect(reducePayModal(states.confirm, { type: 'back' })).toEqual(states.amount)
    for (const step of ['wallet', 'processing', 'success', 'failure'] as const)
      expect(reducePayModal(states[step], { type: 'back' })).toBe(states[step])
  })

  it('switches tabs on the chain and token step', () => {
    expect(reducePayModal(states.chainToken, { type: 'setTab', tab: 'chains' })).toMatchObject({
      tab: 'chains',
    })
    expect(reducePayModal(states.chainToken, { type: 'setTab', tab: 'tokens' })).toBe(states.chainToken)
  })

  it('continues only with a chain and a token, and clears the token on another chain', () => {
    const connected = run([{ type: 'connected' }])
    expect(reducePayModal(connected, { type: 'selectToken', token })).toBe(connected)
    const chosen = reducePayModal(connected, { type: 'selectChain', chainId: 8453 })
    expect(chosen).toMatchObject({ tab: 'tokens', chainId: 8453, token: null })
    expect(reducePayModal(chosen, { type: 'continue' })).toBe(chosen)
    // A token of another chain than the chosen one is refused.
    expect(reducePayModal(chosen, { type: 'selectToken', token: avalancheToken })).toBe(chosen)
    const withToken = reducePayModal(chosen, { type: 'selectToken', token })
    expect(reducePayModal(withToken, { type: 'continue' })).toEqual({
      step: 'amount',
      token,
      amount: { text: '', unit: 'TOKEN' },
    })
    expect(reducePayModal(withToken, { type: 'selectChain', chainId: 43114 })).toMatchObject({
      chainId: 43114,
      token: null,
    })
    expect(reducePayModal(withToken, { type: 'selectChain', chainId: 8453 })).toMatchObject({ token })
  })

  it('keeps the amount and its unit, the unit only when one is given', () => {
    const typed = reducePayModal(states.amount, { type: 'setAmount', text: '10', unit: 'USD' })
    expect(typed).toMatchObject({ amount: { text: '10', unit: 'USD' } })
    expect(reducePayModal(typed, { type: 'setAmount', text: '12' })).toMatchObject({
      amount: { text: '12', unit: 'USD' },
    })
    expect(reducePayModal(typed, { type: 'next' })).toEqual({
      step: 'confirm',
      token,
      amount: { text: '10', unit: 'USD' },
    })
  })

  it('goes to processing only from confirm, and to a result only from processing', () => {
    const processing = reducePayModal(states.confirm, { type: 'submitted', payment })
    expect(processing).toEqual(states.processing)
    expect(reducePayModal(processing, { type: 'succeeded', record: null })).toEqual(states.success)
    expect(reducePayModal(processing, { type: 'failed', message: 'reverted' })).toEqual(states.failure)
  })

  it('marks the receipt posted only for the payment it was posted for', () => {
    const processing = states.processing
    expect(reducePayModal(processing, { type: 'receiptPosted', txHash: '0x9' })).toBe(processing)
    const posted = reducePayModal(processing, { type: 'receiptPosted', txHash: '0x2' })
    expect(posted).toEqual({ ...processing, payment: { ...payment, isReceiptPosted: true } })
    expect(reducePayModal(posted, { type: 'receiptPosted', txHash: '0x2' })).toBe(posted)
    for (const step of ['success', 'failure'] as const)
      expect(reducePayModal(states[step], { type: 'receiptPosted', txHash: '0x2' })).toMatchObject({
        step,
        payment: { isReceiptPosted: true },
      })
    // A receipt of an earlier payment that lands after the modal started over changes nothing.
    const reopened = reducePayModal(processing, { type: 'open' })
    expect(reducePayModal(reopened, { type: 'receiptPosted', txHash: '0x2' })).toBe(reopened)
  })
})
