import { describe, expect, it } from 'vitest'
import { type AuthAction, type AuthStep, createInitialAuthStep } from './auth-flow-state'
import { reduceAuthStep } from './reduce-auth-step'

/** One step of each type, as the user reaches it. */
const steps: Record<AuthStep['type'], AuthStep> = {
  email: { type: 'email', status: 'base', error: null, email: 'a@example.com', mode: 'otp' },
  phone: { type: 'phone', status: 'base', error: null, phone: '+44 7700 900123' },
  code: {
    type: 'code',
    status: 'base',
    error: null,
    channel: 'email',
    mode: 'magicLink',
    contact: ' A@example.com',
    sentTo: 'a@example.com',
    sentAt: 1000,
    resendStatus: 'base',
  },
  magicLink: { type: 'magicLink', status: 'verifying', error: null },
  session: { type: 'session', status: 'verifying', error: null, isNewUser: true },
  mfa: { type: 'mfa', status: 'base', error: null },
}
const types = Object.keys(steps) as AuthStep['type'][]

const everyAction: AuthAction[] = [
  { type: 'editEmail', email: 'b@example.com' },
  { type: 'chooseEmailMode', mode: 'magicLink' },
  { type: 'editPhone', phone: '+1' },
  { type: 'usePhone' },
  { type: 'useEmail' },
  { type: 'contactInvalid', message: 'bad' },
  { type: 'sendStarted' },
  { type: 'codeSent', sentTo: 'x', sentAt: 2000 },
  { type: 'sendFailed', message: 'down' },
  { type: 'resendStarted' },
  { type: 'resent', sentAt: 3000 },
  { type: 'resendFailed', message: 'limit' },
  { type: 'codeEdited' },
  { type: 'verifyStarted' },
  { type: 'verifyFailed', message: 'wrong' },
  { type: 'signedIn' },
  { type: 'back' },
  { type: 'magicLinkStarted' },
  { type: 'walletConnected', isNewUser: false },
  { type: 'sessionRetried' },
  { type: 'mfaRequired' },
  { type: 'linkingCodeSent', email: 'linked@example.com', sentAt: 4000 },
]

/** The actions each step accepts; every other one must leave it untouched. */
const accepted: Record<AuthStep['type'], AuthAction['type'][]> = {
  email: [
    'editEmail',
    'chooseEmailMode',
    'usePhone',
    'contactInvalid',
    'sendStarted',
    'codeSent',
    'sendFailed',
    'magicLinkStarted',
    'walletConnected',
    'linkingCodeSent',
    'mfaRequired',
  ],
  phone: [
    'editPhone',
    'useEmail',
    'contactInvalid',
    'sendStarted',
    'codeSent',
    'sendFailed',
    'magicLinkStarted',
    'linkingCodeSent',
  ],
  code: [
    'resendStarted',
    'resent',
    'resendFailed',
    'verifyStarted',
    'verifyFailed',
    'back',
    'walletConnected',
    'mfaRequired',
  ],
  magicLink: [
    'verifyStarted',
    'verifyFailed',
    'back',
    'magicLinkStarted',
    'walletConnected',
    'mfaRequired',
    'linkingCodeSent',
  ],
  session: ['verifyFailed', 'signedIn', 'back', 'walletConnected', 'sessionRetried'],
  mfa: ['verifyStarted', 'verifyFailed', 'back', 'walletConnected'],
}

describe('reduceAuthStep', () => {
  it('refuses every action a step does not allow, returning the very same step', () => {
    for (const type of types) {
      for (const action of everyAction) {
        if (accepted[type].includes(action.type)) continue
        expect(reduceAuthStep(steps[type], action), `${action.type} on ${type}`).toBe(steps[type])
      }
    }
  })

  it('a social login whose e-mail has an account moves to that e-mail’s code step, from the first step or a redirect return', () => {
    for (const type of ['email', 'phone', 'magicLink'] as const) {
      expect(
        reduceAuthStep(steps[type], { type: 'linkingCodeSent', email: 'linked@example.com', sentAt: 4000 }),
      ).toEqual({
        type: 'code',
        status: 'base',
        error: null,
        channel: 'email',
        mode: 'otp',
        contact: 'linked@example.com',
        sentTo: 'linked@example.com',
        sentAt: 4000,
        resendStatus: 'base',
      })
    }
  })

  it('asks for the authenticator code after a right code or link, or a social login (popup from the first step, redirect return), then opens the session', () => {
    for (const type of ['code', 'magicLink', 'email'] as const) {
      expect(reduceAuthStep(steps[type], { type: 'mfaRequired' })).toEqual(steps.mfa)
    }
    const verifying = reduceAuthStep(steps.mfa, { type: 'verifyStarted' })
    expect(verifying).toEqual({ type: 'mfa', status: 'verifying', error: null })
    const failed = reduceAuthStep(verifying, { type: 'verifyFailed', message: 'That code is not right.' })
    expect(failed).toEqual({ type: 'mfa', status: 'error', error: 'That code is not right.' })
    // Typing again clears the error state; the message stays until the next try.
    expect(reduceAuthStep(failed, { type: 'codeEdited' })).toMatchObject({ type: 'mfa', status: 'base' })
    expect(reduceAuthStep(failed, { type: 'walletConnected', isNewUser: false })).toEqual({
      type: 'session',
      status: 'verifying',
      error: null,
      isNewUser: false,
    })
    expect(reduceAuthStep(failed, { type: 'back' })).toEqual(createInitialAuthStep())
  })

  it('starts on the e-mail step with a code as the default', () => {
    expect(createInitialAuthStep()).toEqual({
      type: 'email',
      status: 'base',
      error: null,
      email: '',
      mode: 'otp',
    })
  })

  it('edits the e-mail and its mode, and typing clears the error', () => {
    const failed = reduceAuthStep(steps.email, { type: 'contactInvalid', message: 'Enter an email' })
    expect(failed).toMatchObject({ status: 'error', error: 'Enter an email' })
    expect(reduceAuthStep(failed, { type: 'editEmail', email: 'b@example.com' })).toEqual({
      ...steps.email,
      email: 'b@example.com',
    })
    expect(reduceAuthStep(steps.email, { type: 'chooseEmailMode', mode: 'magicLink' })).toMatchObject({
      mode: 'magicLink',
    })
    expect(reduceAuthStep(steps.email, { type: 'chooseEmailMode', mode: 'otp' })).toBe(steps.email)
  })

  it('switches between e-mail and phone, each starting empty', () => {
    expect(reduceAuthStep(steps.email, { type: 'usePhone' })).toEqual({
      type: 'phone',
      status: 'base',
      error: null,
      phone: '',
    })
    expect(reduceAuthStep(steps.phone, { type: 'useEmail' })).toEqual(createInitialAuthStep())
    const failed = reduceAuthStep(steps.phone, { type: 'sendFailed', message: 'down' })
    expect(reduceAuthStep(failed, { type: 'editPhone', phone: '+1' })).toEqual({
      ...steps.phone,
      phone: '+1',
    })
  })

  it('sends from the e-mail and phone steps: busy, then the code step or the error', () => {
    for (const type of ['email', 'phone'] as const) {
      const sending = reduceAuthStep(steps[type], { type: 'sendStarted' })
      expect(sending).toMatchObject({ status: 'verifying', error: null })
      expect(reduceAuthStep(sending, { type: 'sendFailed', message: 'down' })).toMatchObject({
        type,
        status: 'error',
        error: 'down',
      })
    }
    expect(reduceAuthStep(steps.email, { type: 'codeSent', sentTo: 'a@example.com', sentAt: 5 })).toEqual({
      type: 'code',
      status: 'base',
      error: null,
      channel: 'email',
      mode: 'otp',
      contact: 'a@example.com',
      sentTo: 'a@example.com',
      sentAt: 5,
      resendStatus: 'base',
    })
    expect(reduceAuthStep(steps.phone, { type: 'codeSent', sentTo: '+447700900123', sentAt: 5 })).toEqual({
      type: 'code',
      status: 'base',
      error: null,
      channel: 'sms',
      mode: 'otp',
      contact: '+44 7700 900123',
      sentTo: '+447700900123',
      sentAt: 5,
      resendStatus: 'base',
    })
  })

  it('resends a code: busy, then a fresh countdown without the old error, or the error', () => {
    const failed = reduceAuthStep(steps.code, { type: 'verifyFailed', message: 'wrong' })
    const resending = reduceAuthStep(failed, { type: 'resendStarted' })
    expect(resending).toMatchObject({ resendStatus: 'verifying' })
    expect(reduceAuthStep(resending, { type: 'resent', sentAt: 9 })).toEqual({ ...steps.code, sentAt: 9 })
    expect(reduceAuthStep(resending, { type: 'resendFailed', message: 'limit' })).toMatchObject({
      resendStatus: 'base',
      status: 'error',
      error: 'limit',
    })
  })

  it('verifies a code: busy, an error that editing the code calms, then the session', () => {
    const verifying = reduceAuthStep(steps.code, { type: 'verifyStarted' })
    expect(verifying).toMatchObject({ status: 'verifying', error: null })
    const failed = reduceAuthStep(verifying, { type: 'verifyFailed', message: 'wrong' })
    expect(failed).toMatchObject({ status: 'error', error: 'wrong' })
    // Editing keeps the message under the field but no longer marks the field invalid.
    expect(reduceAuthStep(failed, { type: 'codeEdited' })).toMatchObject({ status: 'base', error: 'wrong' })
    expect(reduceAuthStep(verifying, { type: 'walletConnected', isNewUser: true })).toEqual(steps.session)
  })

  it('goes back from the code step to the contact as typed, and from the rest to the start', () => {
    expect(reduceAuthStep(steps.code, { type: 'back' })).toEqual({
      type: 'email',
      status: 'base',
      error: null,
      email: ' A@example.com',
      mode: 'magicLink',
    })
    const smsCode = reduceAuthStep(steps.phone, { type: 'codeSent', sentTo: '+447700900123', sentAt: 5 })
    expect(reduceAuthStep(smsCode, { type: 'back' })).toEqual(steps.phone)
    expect(reduceAuthStep(steps.magicLink, { type: 'back' })).toEqual(createInitialAuthStep())
    expect(reduceAuthStep(steps.session, { type: 'back' })).toEqual(createInitialAuthStep())
  })

  it('opens a magic link, fails it, or connects its wallet', () => {
    expect(reduceAuthStep(steps.email, { type: 'magicLinkStarted' })).toEqual(steps.magicLink)
    const failed = reduceAuthStep(steps.magicLink, { type: 'verifyFailed', message: 'expired' })
    expect(failed).toEqual({ type: 'magicLink', status: 'error', error: 'expired' })
    expect(reduceAuthStep(steps.magicLink, { type: 'walletConnected', isNewUser: false })).toEqual({
      ...steps.session,
      isNewUser: false,
    })
  })

  it('opens the session: signed in, or failed and retried', () => {
    expect(reduceAuthStep(steps.session, { type: 'signedIn' })).toEqual({
      ...steps.session,
      status: 'success',
    })
    const failed = reduceAuthStep(steps.session, { type: 'verifyFailed', message: 'siwe' })
    expect(failed).toMatchObject({ status: 'error', error: 'siwe' })
    expect(reduceAuthStep(failed, { type: 'sessionRetried' })).toEqual(steps.session)
    expect(reduceAuthStep(failed, { type: 'walletConnected', isNewUser: true })).toEqual(steps.session)
  })
})
