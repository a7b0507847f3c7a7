import type { MfaRequiredResult } from './multi-factor-types.ts'
import type { SignerClient } from './signer-client.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerUser } from './signer-types.ts'
import type { Stamper } from './stamper.ts'

/**
 * The sign-in in progress, between the code's request and its use. `isNewUser` stays unknown until
 * the code is used: `signup` answers alike for every contact (docs/decisions/0019), and `otp` says
 * whether the account was created. `encryptedPayload` and `mfaFactorId` are set when a second factor
 * is required.
 */
export type PendingSignIn = {
  orgId: string
  otpId: string
  channel: 'email' | 'sms'
  isNewUser: boolean | undefined
  encryptedPayload?: string
  mfaFactorId?: string | null
}

/**
 * The store's shared pieces every action module works with (createSignerStore builds one and
 * passes it to createSignInActions, createPasskeyActions, createContactActions, createMfaActions,
 * createExportActions and createSigningActions). Its own module, so that no action module imports
 * signer-store.ts (which imports them all).
 */
export type SignerStoreContext = {
  client: SignerClient
  stamper: Stamper
  /** What every sign-in asks the signer for: the session length in whole seconds. */
  expirationSeconds: number
  get(): SignerState
  set(partial: Partial<SignerState>): void
  /** The signed-in user; throws `message` (default notAuthenticatedMessage), code UNAUTHORIZED, when there is none. */
  requireUser(message?: string): SignerUser
  /** A stamped call; a refused session key (401) means the wallet session is over (DISCONNECTED). */
  withSession<T>(call: () => Promise<T>): Promise<T>
  /** Stores `{name, message}` of `error`, DISCONNECTED, and rethrows it (a failed sign-in). */
  fail(error: unknown): never
  /** The sign-in waiting for its code or second factor, if any. */
  getPendingSignIn(): PendingSignIn | null
  setPendingSignIn(pending: PendingSignIn | null): void
  /** An MFA_REQUIRED answer: keeps the sealed payload and the first factor, AWAITING_MFA_AUTH. */
  awaitMfa(answer: MfaRequiredResult, pending: PendingSignIn): void
  /**
   * Injects the credential bundle (rejects 'Failed to inject credential bundle'), reads the user,
   * persists the session: CONNECTED. Ends the pending sign-in and the account-linking prompt.
   */
  finishLogin(input: { bundle: string; orgId: string }): Promise<void>
  /** Keeps a changed user (a contact change) in the state and in the persisted session. */
  updateUser(user: SignerUser): void
  /** DISCONNECTED; with `persist` the persisted session is cleared too (other tabs follow). */
  disconnect(options: { persist: boolean }): void
}
