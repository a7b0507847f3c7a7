import { describe, expect, it } from 'vitest'
import {
  getBackOutcome,
  initialPayModalState,
  type PayModalAction,
  type PayModalState,
  type PayStep,
  reducePayModal,
} from './pay-modal-state'

function run(actions: PayModalAction[], state: PayModalState = initialPayModalState): PayModalState {
  return actions.reduce(reducePayModal, state)
}

const atStep = (step: PayStep): PayModalState => ({ ...initialPayModalState, step, hasAutoAdvanced: true })
const payment = {
  intentId: '0x1',
  txHash: '0x2',
  fromChainId: 8453,
  payer: '0x3',
  submittedAtMs: 0,
  isReceiptPosted: false,
}

describe('pay modal steps', () => {
  it('advances once on connect', () => {
    const connected = run([{ type: 'connected' }])
    expect(connected.step).toBe(1)
    expect(run([{ type: 'back' }, { type: 'connected' }], connected).step).toBe(0)
  })

  it('allows another automatic advance after the wallet disconnected', () => {
    const back = run([
      { type: 'connected' },
      { type: 'back' },
      { type: 'disconnected' },
      { type: 'connected' },
    ])
    expect(back.step).toBe(1)
  })

  it('resumes with a wallet that is still connected when the payer picks it again', () => {
    const back = run([{ type: 'connected' }, { type: 'back' }])
    expect(back.step).toBe(0)
    expect(reducePayModal(back, { type: 'resume' }).step).toBe(1)
    expect(reducePayModal(atStep(2), { type: 'resume' }).step).toBe(2)
  })

  it('returns to step 0 when the wallet disconnects on steps 1 to 3 only', () => {
    for (const step of [1, 2, 3] as const)
      expect(reducePayModal(atStep(step), { type: 'disconnected' }).step).toBe(0)
    for (const step of [4, 5, 6] as const)
      expect(reducePayModal(atStep(step), { type: 'disconnected' }).step).toBe(step)
  })

  it('follows the back rules of each step', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((step) => getBackOutcome(step as PayStep))).toEqual([
      'close',
      'disconnect',
      'previous',
      'previous',
      'none',
      'close',
      'close',
    ])
    expect(reducePayModal(atStep(1), { type: 'back' }).step).toBe(0)
    expect(reducePayModal(atStep(2), { type: 'back' }).step).toBe(1)
    expect(reducePayModal(atStep(3), { type: 'back' }).step).toBe(2)
    expect(reducePayModal(atStep(4), { type: 'back' }).step).toBe(4)
  })

  it('continues only with a chain and a token, and clears the token on another chain', () => {
    const chosen = run([{ type: 'connected' }, { type: 'selectChain', chainId: 8453 }])
    expect(chosen.tab).toBe('tokens')
    expect(reducePayModal(chosen, { type: 'continue' }).step).toBe(1)
    const withToken = reducePayModal(chosen, { type: 'selectToken', tokenAddress: '0xa' })
    expect(reducePayModal(withToken, { type: 'continue' }).step).toBe(2)
    expect(reducePayModal(withToken, { type: 'selectChain', chainId: 43114 }).tokenAddress).toBeNull()
    expect(reducePayModal(withToken, { type: 'selectChain', chainId: 8453 }).tokenAddress).toBe('0xa')
  })

  it('goes to processing only from confirm, and to a result only from processing', () => {
    expect(reducePayModal(atStep(2), { type: 'submitted', payment }).step).toBe(2)
    const processing = reducePayModal(atStep(3), { type: 'submitted', payment })
    expect(processing.step).toBe(4)
    expect(reducePayModal(processing, { type: 'succeeded' }).step).toBe(5)
    expect(reducePayModal(processing, { type: 'failed', message: 'reverted' })).toMatchObject({
      step: 6,
      failureMessage: 'reverted',
    })
  })

  it('marks the receipt posted only for the payment it was posted for', () => {
    const processing = reducePayModal(atStep(3), { type: 'submitted', payment })
    expect(processing.payment?.isReceiptPosted).toBe(false)
    expect(reducePayModal(processing, { type: 'receiptPosted', txHash: '0x9' })).toBe(processing)
    expect(reducePayModal(processing, { type: 'receiptPosted', txHash: '0x2' }).payment).toEqual({
      ...payment,
      isReceiptPosted: true,
    })
    // A receipt of an earlier payment that lands after the modal started over changes nothing.
    const reopened = reducePayModal(processing, { type: 'open' })
    expect(reducePayModal(reopened, { type: 'receiptPosted', txHash: '0x2' })).toBe(reopened)
  })

  it('starts over on open', () => {
    expect(reducePayModal(atStep(6), { type: 'open' })).toEqual(initialPayModalState)
  })
})
