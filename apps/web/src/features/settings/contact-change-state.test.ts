import { describe, expect, it } from 'vitest'
import { initialContactChangeStep, reduceContactChange } from './contact-change-state'

describe('reduceContactChange', () => {
  it('goes from the contact to its code, to the confirming code and to the authenticator step', () => {
    let state = reduceContactChange(initialContactChangeStep, { type: 'edited', input: 'new@example.com' })
    state = reduceContactChange(state, { type: 'busy' })
    expect(state).toEqual({ step: 'contact', input: 'new@example.com', error: null, isBusy: true })
    state = reduceContactChange(state, {
      type: 'newCodeSent',
      contact: 'new@example.com',
      otpId: 'o1',
      sentAt: 1,
    })
    expect(state).toMatchObject({ step: 'newCode', otpId: 'o1', isBusy: false, error: null })
    state = reduceContactChange(state, { type: 'resent', otpId: 'o2', sentAt: 2 })
    expect(state).toMatchObject({ step: 'newCode', otpId: 'o2', sentAt: 2 })
    const confirmer = { channel: 'sms', address: '+442079460018' } as const
    state = reduceContactChange(state, {
      type: 'confirmCodeSent',
      contact: 'new@example.com',
      verificationToken: 't1',
      confirmer,
      otpId: 'o3',
      sentAt: 3,
    })
    expect(state).toMatchObject({ step: 'currentCode', confirmer, otpId: 'o3' })
    state = reduceContactChange(state, {
      type: 'totpAsked',
      contact: 'new@example.com',
      verificationToken: 't1',
      previous: 't2',
      error: null,
      isBusy: false,
    })
    expect(state).toEqual({
      step: 'totp',
      contact: 'new@example.com',
      verificationToken: 't1',
      previous: 't2',
      error: null,
      isBusy: false,
    })
  })

  it('keeps a refusal beside the field until the code is edited, and goes back to the contact typed', () => {
    let state = reduceContactChange(initialContactChangeStep, {
      type: 'newCodeSent',
      contact: 'new@example.com',
      otpId: 'o1',
      sentAt: 1,
    })
    state = reduceContactChange(state, { type: 'busy' })
    state = reduceContactChange(state, { type: 'refused', error: 'That code is not right.' })
    expect(state).toMatchObject({ error: 'That code is not right.', isBusy: false })
    const cleared = reduceContactChange(state, { type: 'errorCleared' })
    expect(cleared.error).toBeNull()
    expect(reduceContactChange(cleared, { type: 'errorCleared' })).toBe(cleared)
    expect(reduceContactChange(state, { type: 'back' })).toEqual({
      step: 'contact',
      input: 'new@example.com',
      error: null,
      isBusy: false,
    })
    expect(
      reduceContactChange(state, { type: 'restarted', input: 'new@example.com', error: 'Taken.' }),
    ).toEqual({
      step: 'contact',
      input: 'new@example.com',
      error: 'Taken.',
      isBusy: false,
    })
  })
})
