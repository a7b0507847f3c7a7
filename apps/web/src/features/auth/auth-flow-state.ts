/**
 * The sign-in flow's state (docs/product.md#sign-in-steps): a discriminated union of its steps, moved
 * only by `reduceAuthStep`. Every step carries a status: base (waiting for input),
 * verifying (a request is out), error (the last request failed; `error` says why) or success
 * (signed in).
 */

/** A step's status (see above). */
export type AuthStepStatus = 'base' | 'verifying' | 'error' | 'success'
/** How a sign-in mail signs in: a code, or a link that also carries the code. */
export type EmailMode = 'otp' | 'magicLink'
/** Where a sign-in code went. */
export type CodeChannel = 'email' | 'sms'

/** One variant per step: enter e-mail, enter phone, enter code, open a magic link, open the session. */
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
  /** The code (or link) was right; the account asks for its authenticator app's code. */
  | { type: 'mfa'; status: AuthStepStatus; error: string | null }
  /** The wallet is connected; the app session (SIWE) is being opened. */
  | { type: 'session'; status: AuthStepStatus; error: string | null; isNewUser: boolean }

/** Everything that can happen to the sign-in flow; `reduceAuthStep` refuses what a step does not allow. */
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
  | { type: 'mfaRequired' }
  | { type: 'sessionRetried' }
  /** A social login whose e-mail has an account: its code was sent there and links the provider. */
  | { type: 'linkingCodeSent'; email: string; sentAt: number }

/** The first step: e-mail, empty, a code by default. */
export function createInitialAuthStep(): AuthStep {
  return { type: 'email', status: 'base', error: null, email: '', mode: 'otp' }
}

/** One step of the union, by its type. */
export type AuthStepOf<Type extends AuthStep['type']> = Extract<AuthStep, { type: Type }>

/** The flow's dispatch, as the step components receive it. */
export type AuthDispatch = (action: AuthAction) => void
