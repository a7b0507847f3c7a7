import { type AuthAction, type AuthStep, createInitialAuthStep } from './auth-flow-state'

/**
 * The sign-in flow's transitions, the only way its state changes. An action the current step does
 * not allow is refused: the same step comes back, so React renders nothing new.
 */
export function reduceAuthStep(step: AuthStep, action: AuthAction): AuthStep {
  switch (action.type) {
    case 'editEmail':
      if (step.type !== 'email') return step
      // Typing clears a previous error: it no longer describes what is in the field.
      return { ...step, email: action.email, status: 'base', error: null }
    case 'chooseEmailMode':
      return step.type === 'email' && step.mode !== action.mode ? { ...step, mode: action.mode } : step
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
      return (step.type === 'code' || step.type === 'mfa') && step.status === 'error'
        ? { ...step, status: 'base' }
        : step
    case 'verifyStarted':
      return step.type === 'code' || step.type === 'magicLink' || step.type === 'mfa'
        ? { ...step, status: 'verifying', error: null }
        : step
    case 'verifyFailed':
      return step.type === 'code' ||
        step.type === 'magicLink' ||
        step.type === 'session' ||
        step.type === 'mfa'
        ? { ...step, status: 'error', error: action.message }
        : step
    case 'mfaRequired':
      // A right code or link, or a social login (a popup from the first step, or its redirect
      // return), of an account with an authenticator app: its code comes next.
      return step.type === 'code' || step.type === 'magicLink' || step.type === 'email'
        ? { type: 'mfa', status: 'base', error: null }
        : step
    case 'walletConnected':
      // The wallet opens after a code, a magic link, an authenticator code, a passkey (from the
      // first step), or again when the session is retried.
      if (
        step.type !== 'email' &&
        step.type !== 'code' &&
        step.type !== 'magicLink' &&
        step.type !== 'session' &&
        step.type !== 'mfa'
      )
        return step
      return { type: 'session', status: 'verifying', error: null, isNewUser: action.isNewUser }
    case 'sessionRetried':
      return step.type === 'session' ? { ...step, status: 'verifying', error: null } : step
    case 'signedIn':
      return step.type === 'session' ? { ...step, status: 'success', error: null } : step
    case 'back':
      if (step.type === 'code') {
        return step.channel === 'sms'
          ? { type: 'phone', status: 'base', error: null, phone: step.contact }
          : { type: 'email', status: 'base', error: null, email: step.contact, mode: step.mode }
      }
      if (step.type === 'magicLink' || step.type === 'session' || step.type === 'mfa')
        return createInitialAuthStep()
      return step
    case 'linkingCodeSent':
      // A social login from the first step (or its redirect return) asks for the e-mail's code.
      if (step.type !== 'email' && step.type !== 'phone' && step.type !== 'magicLink') return step
      return {
        type: 'code',
        status: 'base',
        error: null,
        channel: 'email',
        mode: 'otp',
        contact: action.email,
        sentTo: action.email,
        sentAt: action.sentAt,
        resendStatus: 'base',
      }
    case 'magicLinkStarted':
      // A magic link in the address takes over a flow that has sent nothing yet.
      if (step.type !== 'email' && step.type !== 'phone' && step.type !== 'magicLink') return step
      return { type: 'magicLink', status: 'verifying', error: null }
    default: {
      const unreachable: never = action
      return unreachable
    }
  }
}
