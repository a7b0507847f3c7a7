/**
 * The sign-in flow as a reducer over a discriminated union of steps (STYLE "State machines").
 * Every step carries SPEC's auth-step status: base (waiting for input), verifying (a request is
 * out), error (the last request failed; `error` says why) or success (signed in).
 */

export type AuthStepStatus = 'base' | 'verifying' | 'error' | 'success'
export type EmailMode = 'otp' | 'magicLink'
export type CodeChannel = 'email' | 'sms'

export type AuthStep =
  | { type: 'email'; status: AuthStepStatus; error: string | null; email: string; mode: EmailMode }
  | { type: 'phone'; status: AuthStepStatus; error: string | null; phone: string }
  | {
      type: 'code'
      status: AuthStepStatus
      error: string | null
      channel: CodeChannel
      /** For e-mail: how the mail signs in (a code, or a link that also carries the code). */
      mode: EmailMode
      /** What the user typed (e-mail, or the phone as typed). */
      contact: string
      /** The normalised contact the code went to (E.164 for a phone). */
      sentTo: string
      /** When the last code went out (ms), for the resend countdown. */
      sentAt: number
      resendStatus: 'base' | 'verifying'
    }
  | { type: 'magicLink'; status: AuthStepStatus; error: string | null }
  /** The wallet is connected; the app session (SIWE) is being opened. */
  | { type: 'session'; status: AuthStepStatus; error: string | null; isNewUser: boolean }

export type AuthAction =
  | { type: 'editEmail'; email: string }
  | { type: 'chooseEmailMode'; mode: EmailMode }
  | { type: 'editPhone'; phone: string }
  | { type: 'usePhone' }
  | { type: 'useEmail' }
  | { type: 'contactInvalid'; message: string }
  | { type: 'sendStarted' }
  | { type: 'codeSent'; sentTo: string; sentAt: number }
  | { type: 'sendFailed'; message: string }
  | { type: 'resendStarted' }
  | { type: 'resent'; sentAt: number }
  | { type: 'resendFailed'; message: string }
  | { type: 'codeEdited' }
  | { type: 'verifyStarted' }
  | { type: 'verifyFailed'; message: string }
  | { type: 'signedIn' }
  | { type: 'back' }
  | { type: 'magicLinkStarted' }
  | { type: 'walletConnected'; isNewUser: boolean }
  | { type: 'sessionRetried' }

export function createInitialAuthStep(): AuthStep {
  return { type: 'email', status: 'base', error: null, email: '', mode: 'otp' }
}

/** The sign-in flow's transitions. Actions that do not apply to the current step leave it as is. */
export function reduceAuthStep(step: AuthStep, action: AuthAction): AuthStep {
  switch (action.type) {
    case 'editEmail':
      if (step.type !== 'email') return step
      // Typing clears a previous error: it no longer describes what is in the field.
      return { ...step, email: action.email, status: 'base', error: null }
    case 'chooseEmailMode':
      return step.type === 'email' ? { ...step, mode: action.mode } : step
    case 'editPhone':
      return step.type === 'phone' ? { ...step, phone: action.phone, status: 'base', error: null } : step
    case 'usePhone':
      return step.type === 'email' ? { type: 'phone', status: 'base', error: null, phone: '' } : step
    case 'useEmail':
      return step.type === 'phone' ? createInitialAuthStep() : step
    case 'contactInvalid':
    case 'sendFailed':
      if (step.type !== 'email' && step.type !== 'phone') return step
      return { ...step, status: 'error', error: action.message }
    case 'sendStarted':
      if (step.type !== 'email' && step.type !== 'phone') return step
      return { ...step, status: 'verifying', error: null }
    case 'codeSent':
      if (step.type === 'email') {
        return {
          type: 'code',
          status: 'base',
          error: null,
          channel: 'email',
          mode: step.mode,
          contact: step.email,
          sentTo: action.sentTo,
          sentAt: action.sentAt,
          resendStatus: 'base',
        }
      }
      if (step.type === 'phone') {
        return {
          type: 'code',
          status: 'base',
          error: null,
          channel: 'sms',
          mode: 'otp',
          contact: step.phone,
          sentTo: action.sentTo,
          sentAt: action.sentAt,
          resendStatus: 'base',
        }
      }
      return step
    case 'resendStarted':
      return step.type === 'code' ? { ...step, resendStatus: 'verifying' } : step
    case 'resent':
      // A new code: the old one's error (wrong, dead) no longer applies.
      return step.type === 'code'
        ? { ...step, resendStatus: 'base', sentAt: action.sentAt, status: 'base', error: null }
        : step
    case 'resendFailed':
      return step.type === 'code'
        ? { ...step, resendStatus: 'base', status: 'error', error: action.message }
        : step
    case 'codeEdited':
      return step.type === 'code' && step.status === 'error' ? { ...step, status: 'base' } : step
    case 'verifyStarted':
      return step.type === 'code' || step.type === 'magicLink'
        ? { ...step, status: 'verifying', error: null }
        : step
    case 'verifyFailed':
      return step.type === 'code' || step.type === 'magicLink' || step.type === 'session'
        ? { ...step, status: 'error', error: action.message }
        : step
    case 'walletConnected':
      return { type: 'session', status: 'verifying', error: null, isNewUser: action.isNewUser }
    case 'sessionRetried':
      return step.type === 'session' ? { ...step, status: 'verifying', error: null } : step
    case 'signedIn':
      return { ...step, status: 'success', error: null }
    case 'back':
      if (step.type === 'code') {
        return step.channel === 'sms'
          ? { type: 'phone', status: 'base', error: null, phone: step.contact }
          : { type: 'email', status: 'base', error: null, email: step.contact, mode: step.mode }
      }
      if (step.type === 'magicLink' || step.type === 'session') return createInitialAuthStep()
      return step
    case 'magicLinkStarted':
      return { type: 'magicLink', status: 'verifying', error: null }
    default: {
      const unreachable: never = action
      return unreachable
    }
  }
}
