import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import { withTimeout } from '@quicklinks/core/with-timeout'
import type {
  ContactChange,
  ContactRemoval,
  ExportKind,
  ExportTarget,
} from '@quicklinks/protocol/frame-only-activities'
import { address, type Rpc, type SendTransactionApi } from '@solana/kit'
import type { Hex, LocalAccount } from 'viem'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { createFrameStamper } from './create-frame-stamper.ts'
import { createSignerAccount } from './create-signer-account.ts'
import {
  isMultiFactorType,
  type MfaRequiredResult,
  type MultiFactor,
  type MultiFactorCode,
  type MultiFactorEnrolment,
  mfaFactorIdMismatchMessage,
  noCredentialBundleFromValidateMessage,
  noPendingMfaContextMessage,
  unsupportedMultiFactorTypeMessage,
} from './multi-factor-types.ts'
import { createOAuthActions, type LinkedOAuthProvider, type OAuthLoginOutcome } from './oauth-actions.ts'
import { getOAuthNonce, type OAuthParams, type OAuthPopupResult } from './oauth-login.ts'
import { openExportFrame } from './open-export-frame.ts'
import type { AddedPasskey } from './passkey-types.ts'
import { assertWebAuthnSupported, createPasskey, stampWithPasskey } from './passkey-webauthn.ts'
import {
  clearPersistedSession,
  type PersistedSession,
  readPersistedSession,
  type SessionStorageLike,
  signerStorageKey,
  writePersistedSession,
} from './persisted-session.ts'
import { pollActivity } from './poll-activity.ts'
import type { ExportResult, SignerClient } from './signer-client.ts'
import type {
  AuthLinkingStatus,
  EmailMode,
  MfaStatus,
  SignerStatus,
  SignerUser,
  StepUp,
  StoredError,
  WhoamiResult,
} from './signer-types.ts'
import { createSolanaSigner, type SolanaSendingSigner, type SolanaSigner } from './solana/solana-signer.ts'
import type { Stamper } from './stamper.ts'
import { toClientStepUp } from './to-client-step-up.ts'
import { createWalletError, toStoredError } from './wallet-error.ts'

/** Sessions last 900 000 ms by default (docs/product.md#constants). */
export const defaultSessionExpirationMs = 900_000

/** Message of the error thrown when an action needs a signed-in user and there is none. */
export const notAuthenticatedMessage = 'Signer not authenticated. Please authenticate to use this signer'

export type SignerState = {
  user: SignerUser | null
  status: SignerStatus
  error: StoredError | null
  /** The pending code's id, while a code is awaited. */
  otpId: string | null
  /** Set once the signer says whether the last sign-in created the account. */
  isNewUser: boolean | undefined
  mfaStatus: MfaStatus
  authLinkingStatus: AuthLinkingStatus | null
  /** When the wallet session ends (epoch ms, this device's clock); null when disconnected. */
  sessionExpiresAtMs: number | null

  /**
   * Sends a sign-in code (mode 'otp') or a magic link that also carries the code (mode
   * 'magicLink') to an e-mail address through `signup`, the account-creation call, whether or not
   * the address has an account (the signer's answer does not say; docs/decisions/0019):
   * AUTHENTICATING_EMAIL, then AWAITING_EMAIL_AUTH. Rejects (and stores the error, status DISCONNECTED) with the signer's message, e.g. the
   * 3-sends-per-3-minutes refusal.
   */
  authenticateWithEmail(input: { email: string; mode?: EmailMode; redirectParams?: string }): Promise<void>
  /** Sends a sign-in code by SMS: AWAITING_SMS_AUTH. Rejects like {@link authenticateWithEmail}. */
  authenticateWithSms(input: { phone: string }): Promise<void>
  /**
   * Submits the code (AWAITING_OTP_AUTH), opens the credential bundle, reads the user: CONNECTED.
   * With a second factor required: AWAITING_MFA_AUTH. Rejects with 'orgId not found in session',
   * 'otpId not found in session', the signer's message ('That code is not right…'), 'Failed to
   * submit OTP code. Server did not return required fields.' or 'Failed to inject credential
   * bundle'; the error is stored and the status becomes DISCONNECTED, but the pending code is
   * kept, so the user may type it again.
   */
  submitOtpCode(code: string): Promise<void>
  /**
   * Signs in with a magic link's `bundle` (a one-time token) and `orgId`: AUTHENTICATING_EMAIL,
   * then CONNECTED. The signer mints the session now, encrypted to this browser's key, and only if
   * it is the key the link was asked for. Rejects with the signer's message ('This sign-in link
   * could not be opened here…', 'This sign-in link no longer works…') or 'Failed to inject
   * credential bundle'.
   */
  completeMagicLink(input: { bundle: string; orgId: string }): Promise<void>
  /**
   * Signs in with a custom JWT from the issuer configured as `authProvider`: AUTHENTICATING_JWT,
   * then `auth-jwt` (docs/signer.md#auth-jwt; a first sign-in of the token's issuer and subject
   * creates the account; `isNewUser` says so), the bundle is injected and the user read: CONNECTED.
   * Rejects (error stored, status DISCONNECTED) with the signer's message ('Invalid token specified:
   * …' for a token that does not decode, 'The token has expired…', a wrong audience, issuer or
   * signature) or 'Failed to inject credential bundle'. An account with a confirmed authenticator
   * app is asked for its code first: AWAITING_MFA_AUTH, and validateMultiFactors finishes
   * (docs/signer.md#mfa-required). A token signs in once; by default it must carry
   * `nonce` = hex SHA-256 of the auth frame's key: pass `jwt` as a function, which gets that
   * nonce and returns the token your backend minted with it (docs/signer.md#auth-jwt).
   */
  authenticateWithJwt(input: {
    jwt: string | ((input: { nonce: string }) => string | Promise<string>)
    authProvider: string
  }): Promise<void>
  /**
   * Passkey sign-in (docs/signer.md#passkeys): AUTHENTICATING_PASSKEY, then CONNECTED. With
   * `createNew` a new passkey is made (`passkey-challenge`, then `signup` with it: one prompt, the
   * account and its first session at once; `email` is the passkey's user name, else 'anonymous').
   * Otherwise a passkey stamps a login naming the auth frame's key and the user is found by it;
   * when no user has that passkey and an `email` is given, an account is created as with `createNew`.
   * Rejects (error stored, DISCONNECTED) with 'webauthn is not supported by this browser', 'No
   * user found', the browser's or the signer's message, or 'Failed to inject credential bundle'.
   */
  authenticateWithPasskey(input?: {
    createNew?: boolean
    email?: string
    authenticatorName?: string
  }): Promise<void>
  /**
   * Makes a new passkey (user verification required) and adds it to the signed-in user (name
   * default `passkey-{timestamp}`), with the step-up (docs/signer.md#step-up). Rejects with the
   * signer's refusal (`details.reason` STEP_UP_REQUIRED, STEP_UP_REFUSED, STEP_UP_TOTP_REQUIRED…).
   */
  addPasskey(input: { name?: string; stepUp: StepUp }): Promise<AddedPasskey>
  /** Removes a passkey of the signed-in user, with the step-up; the signer refuses the last way to sign in. */
  removePasskey(authenticatorId: string, stepUp: StepUp): Promise<void>
  /**
   * Ends the session key at the signer (a stamped `revoke-session`, waited for at most 2 s), then
   * clears the persisted session (DISCONNECTED) and has the stamper drop its keys
   * (RESET_EMBEDDED_KEY). A copy of the session key stops working at once. Never rejects.
   */
  logout(): Promise<void>
  /**
   * Shows the seed phrase (default for frame sessions) or the private key of the user's address
   * inside the export frame, placed in `container`; resolves `true`. The export frame builds the
   * request to its own key and the auth frame stamps it between the two frames; this page only
   * relays the stamped request and the encrypted bundle, so the secret never reaches it
   * (docs/decisions/0014). Needs a browser. Rejects with a not-authenticated error, 'Unknown
   * export mode: {kind}', the frames' or the signer's message, or 'Failed to inject wallet export
   * bundle'.
   */
  exportWallet(input: {
    container: HTMLElement
    kind?: ExportKind
    theme?: 'light' | 'dark'
  }): Promise<boolean>
  /**
   * Changes the sign-in e-mail or phone to `change.contact`, proven by a `verify-otp` token (and
   * the current contact's, when there is one on that channel). The stamper builds and stamps the
   * body (the auth frame refuses such bodies from this page). On success the signer tells the old
   * contact and ends every other session of the account; resolves with the updated user.
   * Rejects with 'Email must not be empty. Use removeEmail() to remove email auth.', 'Verification
   * token is required to change phone number.', or the signer's message.
   */
  updateContact(change: ContactChange): Promise<SignerUser>
  /**
   * Sends a verification code to `contact` (`init-otp`), the first step of adding or changing an
   * e-mail or phone; resolves with the code's `otpId`. Needs no session. Rejects with the signer's
   * message (a malformed contact, the 3-sends-per-3-minutes limit).
   */
  sendVerificationCode(input: { channel: 'email' | 'sms'; contact: string }): Promise<{ otpId: string }>
  /**
   * Trades a code from {@link sendVerificationCode} for a verification token (`verify-otp`), the
   * proof `setEmail` and `setPhone` take. Rejects with 'Missing OTP ID' without an `otpId`, or the
   * signer's message for a wrong, spent or locked code.
   */
  verifyCode(input: { otpId: string; code: string }): Promise<{ verificationToken: string }>
  /**
   * Sets the sign-in e-mail to one proven by `verificationToken` (and the current address's
   * token when the account has one): {@link updateContact} on the e-mail channel. Rejects with
   * 'Email must not be empty. Use removeEmail() to remove email auth.' or like `updateContact`.
   */
  setEmail(input: {
    email: string
    verificationToken: string
    previousContactVerificationToken?: string
    /** The account's current authenticator code, when it has an authenticator app. */
    totpCode?: string
  }): Promise<SignerUser>
  /**
   * Sets the sign-in phone (E.164) like {@link setEmail}. Rejects with 'Verification token is
   * required to change phone number.' or like `updateContact`.
   */
  setPhone(input: {
    phone: string
    verificationToken: string
    previousContactVerificationToken?: string
    /** The account's current authenticator code, when it has an authenticator app. */
    totpCode?: string
  }): Promise<SignerUser>
  /**
   * Takes the sign-in e-mail off the account (`remove-email-auth`, docs/signer.md#contact-removal),
   * proven by a `verify-otp` token for that address; resolves with the updated user. The signer
   * ends every other session of the account. Rejects with the signer's message, e.g. 'This is your
   * only way to sign in. Add another one before you remove it.'
   */
  removeEmail(input: { verificationToken: string; totpCode?: string }): Promise<SignerUser>
  /** Takes the sign-in phone off the account like {@link removeEmail} (`remove-phone-auth`). */
  removePhone(input: { verificationToken: string; totpCode?: string }): Promise<SignerUser>
  /**
   * Completes a sign-in waiting for its second factor (AWAITING_MFA_AUTH, after `submitOtpCode` or
   * `completeMagicLink` answered MFA_REQUIRED) with the authenticator app's code: the bundle is
   * injected, the user read, MFA state cleared: CONNECTED. `multiFactorId`, when given, must be the
   * pending factor's. Rejects (error stored, status DISCONNECTED; the pending context is kept for
   * another try unless the signer refused it as expired or spent) with 'No pending MFA context
   * found. Call submitOtpCode() first.', 'MFA factor ID mismatch', the signer's message ('That code
   * is not right…', 'That code was already used…', the lock), 'Request to validateMultiFactors did
   * not return a credential bundle' or 'Failed to inject credential bundle'.
   */
  validateMultiFactors(input: { multiFactorCode: string; multiFactorId?: string }): Promise<void>
  /**
   * Starts enrolling a second factor: answers the secret and its otpauth URI (show both once). Only
   * totp: rejects 'Unsupported MFA factor type: {type}' otherwise, or a not-authenticated error.
   */
  addMfa(input: { multiFactorType: string; stepUp: StepUp }): Promise<MultiFactorEnrolment>
  /** Confirms an enrolment with a first code; resolves with the confirmed factors. */
  verifyMfa(input: MultiFactorCode): Promise<MultiFactor[]>
  /** The confirmed second factors. */
  getMfaFactors(): Promise<MultiFactor[]>
  /** Removes second factors; resolves with those left. */
  removeMfa(input: { multiFactorIds: string[]; stepUp: StepUp }): Promise<MultiFactor[]>
  /**
   * Social login (docs/signer.md#social-login), popup or redirect: see oauth-actions.ts. SUCCESS
   * connects; ACCOUNT_LINKING_CONFIRMATION_REQUIRED waits for the e-mail code (submitOtpCode), whose
   * sign-in the signer links the provider in; FETCHED_ID_TOKEN_ONLY answers the tokens.
   */
  loginWithOAuth(params: OAuthParams): Promise<OAuthLoginOutcome>
  /** Finishes a redirect-mode social login from the auth-return parameters (readOAuthReturnParams). */
  completeOAuthRedirect(result: OAuthPopupResult): Promise<OAuthLoginOutcome | undefined>
  /** Links another provider to the signed-in user (an id-token-only login in a popup, then add-oauth-provider). */
  addOauthProvider(
    params: Omit<OAuthParams, 'fetchIdTokenOnly'> & { stepUp: StepUp },
  ): Promise<LinkedOAuthProvider>
  /** Unlinks a provider identity; the signer refuses the last way to sign in. */
  removeOauthProvider(input: { issuer: string; subject: string; stepUp: StepUp }): Promise<void>
  /** The connected wallet as a viem LocalAccount. Throws when not connected. */
  toViemAccount(): LocalAccount
  /** Signs bytes with the Solana account: a 64-byte ed25519 signature. */
  signSolanaMessage(message: Uint8Array): Promise<Uint8Array>
  /**
   * The signed-in user's Solana account as a `@solana/kit` message and transaction signer
   * (docs/signer.md#solana-signing); the same object while the same account is signed in. Every
   * signature is one `sign-payload` activity. Throws 'Must be authenticated!' when signed out and
   * 'No Solana address available for the user' for a user without one, now and again at each
   * signing (also 'Must be authenticated!' once another account is signed in instead). With `rpc`
   * (e.g. kit's `createSolanaRpc(url)`) it is also a kit sending signer, for
   * `signAndSendTransactionMessageWithSigners`; that one is new at each call, so reuse it.
   */
  toSolanaSigner(): SolanaSigner
  toSolanaSigner(options: { rpc: Rpc<SendTransactionApi> }): SolanaSendingSigner
}

export type SignerStore = StoreApi<SignerState> & {
  readonly client: SignerClient
  readonly stamper: Stamper
  /** Stops the expiry timer and the cross-tab listener. */
  destroy(): void
}

export type SignerStoreOptions = {
  client: SignerClient
  /** Default: the auth frame (createFrameStamper) at signer-config's `authFrameUrl`. */
  stamper?: Stamper
  /** Default: `globalThis.localStorage` when present; null keeps the session in memory only. */
  storage?: SessionStorageLike | null
  storageKey?: string
  /** Wallet session length (default 900 000 ms); the signer is asked for floor(ms / 1000) s. */
  sessionExpirationMs?: number
  /** Where `storage` events arrive from other tabs (default `globalThis.window`); null: none. */
  eventTarget?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null
  now?: () => number
}

/**
 * The sign-in in progress, between the code's request and its use. `isNewUser` stays unknown until
 * the code is used: `signup` answers alike for every contact (docs/decisions/0019), and `otp` says
 * whether the account was created. `encryptedPayload` and `mfaFactorId` are set when a second factor
 * is required.
 */
type TemporarySession = {
  orgId: string
  otpId: string
  channel: 'email' | 'sms'
  isNewUser: boolean | undefined
  encryptedPayload?: string
  mfaFactorId?: string | null
}

const disconnectedFields = {
  user: null,
  status: 'DISCONNECTED',
  otpId: null,
  isNewUser: undefined,
  mfaStatus: { mfaRequired: false, mfaFactorId: null },
  authLinkingStatus: null,
  sessionExpiresAtMs: null,
} as const satisfies Partial<SignerState>

/** The longest delay setTimeout honours (about 24.8 days). */
const maxTimerMs = 2_147_483_647

/** How long logout waits for the signer to revoke the session key before it signs out locally. */
const logoutRevokeTimeoutMs = 2000

/**
 * Creates the embedded-wallet signer store (zustand vanilla; in React: `useStore(store, selector)`),
 * with the transitions of docs/signer.md#signer-status. It initialises at once from the persisted session:
 * CONNECTED if a stored, unexpired session user exists, else DISCONNECTED. At the session's
 * expiry it disconnects, and it follows sign-ins and logouts in other tabs (`storage` events).
 *
 * Every action that fails stores `{name, message}` in `error` and rethrows, so a caller can both
 * await it and render the store.
 */
export function createSignerStore(options: SignerStoreOptions): SignerStore {
  const { client } = options
  const now = options.now ?? Date.now
  const storageKey = options.storageKey ?? signerStorageKey
  const storage =
    options.storage === undefined
      ? (globalThis.localStorage as SessionStorageLike | undefined)
      : options.storage
  const eventTarget =
    options.eventTarget === undefined
      ? typeof window === 'undefined'
        ? undefined
        : window
      : (options.eventTarget ?? undefined)
  const expirationSeconds = Math.floor((options.sessionExpirationMs ?? defaultSessionExpirationMs) / 1000)
  const stamper =
    options.stamper ??
    createFrameStamper({ frameUrl: async () => (await client.getSignerConfig()).authFrameUrl })

  let temporarySession: TemporarySession | null = null
  let solanaSigner: SolanaSigner | undefined
  let expiryTimer: ReturnType<typeof setTimeout> | undefined

  const initial = storage ? readPersistedSession(storage, storageKey, now()) : null
  const store = createStore<SignerState>()((set, get) => {
    const fail = (error: unknown): never => {
      set({ error: toStoredError(error), status: 'DISCONNECTED' })
      throw error
    }

    const requireUser = (message = notAuthenticatedMessage): SignerUser => {
      const { user } = get()
      if (user === null) throw createWalletError(message, { code: 'UNAUTHORIZED' })
      return user
    }

    /** A stamped call; a refused session key (401) means the wallet session is over. */
    const withSession = async <T>(call: () => Promise<T>): Promise<T> => {
      try {
        return await call()
      } catch (error) {
        if (isSessionRefused(error)) disconnect({ persist: true })
        throw error
      }
    }

    /**
     * `remove-email-auth` / `remove-phone-auth`, built and stamped where the session key is (the
     * auth frame refuses e-mail and phone bodies from this page), then the user as the signer answers it.
     */
    const removeContact = async (removal: ContactRemoval): Promise<SignerUser> => {
      const user = requireUser()
      return withSession(async () => {
        const call = await stamper.stampContactRemoval({ removal, timestampMs: client.serverNow() })
        const whoami = await client.postStampedCall<WhoamiResult>(call)
        const updated: SignerUser = { ...user, email: whoami.email ?? null, phone: whoami.phone ?? null }
        const { sessionExpiresAtMs } = get()
        if (storage && sessionExpiresAtMs !== null) {
          writePersistedSession(storage, storageKey, { user: updated, expiresAtMs: sessionExpiresAtMs })
        }
        set({ user: updated })
        return updated
      })
    }

    const signRaw = async (
      signWith: string,
      payload: Hex,
      hashFunction: 'HASH_FUNCTION_NO_OP' | 'HASH_FUNCTION_NOT_APPLICABLE',
    ): Promise<Hex> => {
      const user = requireUser()
      return withSession(async () => {
        const answer = await client.signPayload(stamper, user.orgId, {
          signWith,
          payload,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction,
        })
        if (answer.signature) return answer.signature
        const done = await pollActivity({
          activity: answer.activity,
          getActivity: async (activityId) =>
            (await client.getActivity(stamper, user.orgId, activityId)).activity as typeof answer.activity,
        })
        const signature = done.result?.signature
        if (!signature) throw createWalletError(`Activity ${done.id} completed without a signature`)
        return signature
      })
    }

    function toSolanaSigner(): SolanaSigner
    function toSolanaSigner(options: { rpc: Rpc<SendTransactionApi> }): SolanaSendingSigner
    function toSolanaSigner(options?: { rpc: Rpc<SendTransactionApi> }): SolanaSigner | SolanaSendingSigner {
      const user = requireUser('Must be authenticated!')
      const solanaAddress = user.solanaAddress
      if (!solanaAddress) throw createWalletError('No Solana address available for the user')
      const signBytes = async (bytes: Uint8Array): Promise<Uint8Array> => {
        // Checked again at each signing: the session may have ended, or another account begun.
        const current = requireUser('Must be authenticated!')
        if (current.solanaAddress && current.solanaAddress !== solanaAddress) {
          throw createWalletError('Must be authenticated!', { code: 'UNAUTHORIZED' })
        }
        return get().signSolanaMessage(bytes)
      }
      if (options !== undefined) {
        return createSolanaSigner({ address: address(solanaAddress), signBytes, rpc: options.rpc })
      }
      if (solanaSigner?.address !== solanaAddress) {
        solanaSigner = createSolanaSigner({ address: address(solanaAddress), signBytes })
      }
      return solanaSigner
    }

    /** An MFA_REQUIRED answer: keep the sealed payload and the first factor, AWAITING_MFA_AUTH. */
    const awaitMfa = (answer: MfaRequiredResult, pending: TemporarySession): void => {
      const mfaFactorId = answer.multiFactors[0]?.multiFactorId ?? null
      temporarySession = { ...pending, encryptedPayload: answer.encryptedPayload, mfaFactorId }
      set({ status: 'AWAITING_MFA_AUTH', mfaStatus: { mfaRequired: true, mfaFactorId } })
    }

    const finishLogin = async (input: { bundle: string; orgId: string }): Promise<void> => {
      const expiresAtMs = now() + expirationSeconds * 1000
      try {
        await stamper.injectCredentialBundle({
          bundle: input.bundle,
          organizationId: input.orgId,
          expiresAtMs,
        })
      } catch (error) {
        throw createWalletError('Failed to inject credential bundle', { cause: error })
      }
      const whoami = await client.whoami(stamper, input.orgId)
      temporarySession = null
      const user: SignerUser = {
        orgId: whoami.orgId,
        userId: whoami.userId,
        address: whoami.address,
        solanaAddress: whoami.solanaAddress ?? null,
        email: whoami.email ?? null,
        phone: whoami.phone ?? null,
      }
      if (storage) writePersistedSession(storage, storageKey, { user, expiresAtMs })
      connect(user, expiresAtMs)
      // An account-linking prompt whose e-mail code this login used: the signer linked it then.
      oauth.clearLinkingPrompt()
    }

    const oauth = createOAuthActions({
      client,
      stamper,
      expirationSeconds,
      get,
      set,
      finishLogin,
      awaitMfa: (answer) =>
        awaitMfa(answer, { orgId: answer.orgId, otpId: '', channel: 'email', isNewUser: false }),
      awaitEmailCode: ({ orgId, otpId }) => {
        temporarySession = { orgId, otpId, channel: 'email', isNewUser: false }
      },
      withSession,
    })

    return {
      ...disconnectedFields,
      status: 'INITIALIZING',
      error: null,

      async authenticateWithEmail({ email, mode = 'otp', redirectParams }) {
        temporarySession = null
        set({
          status: 'AUTHENTICATING_EMAIL',
          error: null,
          otpId: null,
          isNewUser: undefined,
          mfaStatus: { mfaRequired: false, mfaFactorId: null },
        })
        try {
          const targetPublicKey = await stamper.getPublicKey()
          // The account-creation call for every contact: the signer looks the contact up itself and,
          // for one with an account, only sends the code, with an answer of the same shape, so
          // nothing here tells who has an account (docs/decisions/0019).
          const { orgId, otpId } = await client.signup({
            email,
            emailMode: mode,
            targetPublicKey,
            expirationSeconds,
            ...(redirectParams === undefined ? {} : { redirectParams }),
          })
          temporarySession = { orgId, otpId, channel: 'email', isNewUser: undefined }
          set({ status: 'AWAITING_EMAIL_AUTH', otpId })
        } catch (error) {
          fail(error)
        }
      },

      async authenticateWithSms({ phone }) {
        temporarySession = null
        set({ status: 'AWAITING_SMS_AUTH', error: null, otpId: null, isNewUser: undefined })
        try {
          const targetPublicKey = await stamper.getPublicKey()
          const { orgId, otpId } = await client.signup({ phone, targetPublicKey, expirationSeconds })
          temporarySession = { orgId, otpId, channel: 'sms', isNewUser: undefined }
          set({ status: 'AWAITING_SMS_AUTH', otpId })
        } catch (error) {
          fail(error)
        }
      },

      async submitOtpCode(code) {
        try {
          if (!temporarySession?.orgId) throw createWalletError('orgId not found in session')
          if (!temporarySession.otpId) throw createWalletError('otpId not found in session')
          const { orgId, otpId } = temporarySession
          set({ status: 'AWAITING_OTP_AUTH', error: null })
          const targetPublicKey = await stamper.getPublicKey()
          const answer = await client.otp({
            orgId,
            otpId,
            otpCode: code.trim(),
            targetPublicKey,
            expirationSeconds,
          })
          if ('status' in answer && answer.status === 'MFA_REQUIRED') {
            awaitMfa(answer, temporarySession)
            return
          }
          if (!('credentialBundle' in answer) || typeof answer.credentialBundle !== 'string') {
            throw createWalletError('Failed to submit OTP code. Server did not return required fields.')
          }
          temporarySession = { ...temporarySession, isNewUser: answer.isNewUser === true }
          set({ isNewUser: temporarySession.isNewUser })
          // The signer's orgId wins: the one signup answered may belong to an account that moved off this contact.
          await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId ?? orgId })
        } catch (error) {
          fail(error)
        }
      },

      async completeMagicLink({ bundle, orgId }) {
        set({ status: 'AUTHENTICATING_EMAIL', error: null })
        try {
          if (!bundle || !orgId) throw createWalletError('Could not find email auth init session!')
          const targetPublicKey = await stamper.getPublicKey()
          const answer = await client.openMagicLink({
            orgId,
            token: bundle,
            targetPublicKey,
            expirationSeconds,
          })
          if ('status' in answer && answer.status === 'MFA_REQUIRED') {
            const pendingOrgId = answer.orgId ?? orgId
            awaitMfa(answer, { orgId: pendingOrgId, otpId: '', channel: 'email', isNewUser: false })
            return
          }
          if (!('credentialBundle' in answer))
            throw createWalletError('Could not find email auth init session!')
          set({ isNewUser: answer.isNewUser })
          await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
        } catch (error) {
          fail(error)
        }
      },

      async validateMultiFactors({ multiFactorCode, multiFactorId }) {
        const pending = temporarySession
        try {
          if (!pending?.encryptedPayload) throw createWalletError(noPendingMfaContextMessage)
          if (multiFactorId !== undefined && multiFactorId !== pending.mfaFactorId) {
            throw createWalletError(mfaFactorIdMismatchMessage)
          }
          const factorId = multiFactorId ?? pending.mfaFactorId
          if (!factorId) throw createWalletError(mfaFactorIdMismatchMessage)
          set({ status: 'AWAITING_MFA_AUTH', error: null })
          const targetPublicKey = await stamper.getPublicKey()
          const answer = await client.validateMultiFactors({
            encryptedPayload: pending.encryptedPayload,
            multiFactors: [{ multiFactorId: factorId, multiFactorCode: multiFactorCode.replace(/\s/g, '') }],
            targetPublicKey,
          })
          const bundle = answer.payload?.credentialBundle
          if (typeof bundle !== 'string' || bundle.length === 0) {
            throw createWalletError(noCredentialBundleFromValidateMessage)
          }
          set({ isNewUser: answer.isNewUser === true, mfaStatus: { mfaRequired: false, mfaFactorId: null } })
          await finishLogin({ bundle, orgId: answer.orgId ?? pending.orgId })
        } catch (error) {
          if (isMfaContextRefused(error)) {
            // Expired or spent at the signer: this pending sign-in is over; start again.
            temporarySession = null
            set({ mfaStatus: { mfaRequired: false, mfaFactorId: null } })
          }
          fail(error)
        }
      },

      async addMfa({ multiFactorType, stepUp }) {
        const user = requireUser()
        if (!isMultiFactorType(multiFactorType)) {
          throw createWalletError(unsupportedMultiFactorTypeMessage(multiFactorType))
        }
        return withSession(() =>
          client.requestMultiFactor(stamper, user.orgId, { multiFactorType }, toClientStepUp(stepUp)),
        )
      },

      async verifyMfa(input) {
        const user = requireUser()
        return withSession(
          async () => (await client.verifyMultiFactor(stamper, user.orgId, input)).multiFactors,
        )
      },

      async getMfaFactors() {
        const user = requireUser()
        return withSession(async () => (await client.listMultiFactors(stamper, user.orgId)).multiFactors)
      },

      async removeMfa({ multiFactorIds, stepUp }) {
        const user = requireUser()
        return withSession(
          async () =>
            (await client.deleteMultiFactors(stamper, user.orgId, { multiFactorIds }, toClientStepUp(stepUp)))
              .multiFactors,
        )
      },

      async authenticateWithJwt({ jwt, authProvider }) {
        temporarySession = null
        set({ status: 'AUTHENTICATING_JWT', error: null, otpId: null, isNewUser: undefined })
        try {
          const targetPublicKey = await stamper.getPublicKey()
          const token = typeof jwt === 'string' ? jwt : await jwt({ nonce: getOAuthNonce(targetPublicKey) })
          const answer = await client.authJwt({
            jwt: token,
            authProvider,
            targetPublicKey,
            expirationSeconds,
          })
          if ('status' in answer) {
            awaitMfa(answer, { orgId: answer.orgId, otpId: '', channel: 'email', isNewUser: false })
            return
          }
          set({ isNewUser: answer.isNewUser })
          await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
        } catch (error) {
          fail(error)
        }
      },

      async authenticateWithPasskey({ createNew = false, email, authenticatorName } = {}) {
        temporarySession = null
        set({ status: 'AUTHENTICATING_PASSKEY', error: null, otpId: null, isNewUser: undefined })
        try {
          assertWebAuthnSupported()
          const targetPublicKey = await stamper.getPublicKey()
          const signUp = async () => {
            const { challenge } = await client.passkeyChallenge()
            const created = await createPasskey({ challenge, userName: email || 'anonymous' })
            const answer = await client.signupWithPasskey({
              passkey: { challenge, attestation: created.attestation },
              ...(email ? { email } : {}),
              authenticatorName: authenticatorName ?? `passkey-${Date.now()}`,
              targetPublicKey,
              expirationSeconds,
            })
            if (typeof answer.credentialBundle !== 'string') {
              throw createWalletError(
                'Failed to sign up with passkey. Server did not return required fields.',
              )
            }
            set({ isNewUser: true })
            await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
          }
          if (createNew) {
            await signUp()
            return
          }
          let answer: Awaited<ReturnType<SignerClient['authPasskey']>>
          try {
            answer = await client.authPasskey({ targetPublicKey, expirationSeconds }, (body) =>
              stampWithPasskey(body),
            )
          } catch (error) {
            if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
            // With an e-mail given, no user found for the passkey creates an account (docs/signer.md#passkeys).
            if (!email) throw createWalletError('No user found', { cause: error })
            await signUp()
            return
          }
          set({ isNewUser: answer.isNewUser })
          await finishLogin({ bundle: answer.credentialBundle, orgId: answer.orgId })
        } catch (error) {
          fail(error)
        }
      },

      async addPasskey({ name, stepUp }) {
        const user = requireUser()
        assertWebAuthnSupported()
        const { challenge } = await client.passkeyChallenge()
        const created = await createPasskey({ challenge, userName: user.email || 'anonymous' })
        return withSession(() =>
          client.addPasskey(
            stamper,
            user.orgId,
            {
              challenge,
              attestation: created.attestation,
              authenticatorName: name ?? `passkey-${Date.now()}`,
            },
            toClientStepUp(stepUp),
          ),
        )
      },

      async removePasskey(authenticatorId, stepUp) {
        const user = requireUser()
        await withSession(() =>
          client.removePasskey(stamper, user.orgId, authenticatorId, toClientStepUp(stepUp)),
        )
      },

      async logout() {
        temporarySession = null
        const { user } = get()
        if (user !== null) {
          // Before the local state goes: a copied session key must stop working now, not at expiry.
          // A failure (offline, already expired) still signs out here.
          const revoke = async () => client.revokeSession(stamper, user.orgId)
          await withTimeout(revoke(), logoutRevokeTimeoutMs, () =>
            createWalletError('The signer did not answer in time.'),
          ).catch(() => undefined)
        }
        disconnect({ persist: true })
        set({ error: null })
        try {
          await stamper.reset()
        } catch {
          // A logout error is logged only (docs/signer.md#signer-status); the page is signed out either way.
        }
      },

      async exportWallet({ container, kind, theme }) {
        const user = requireUser()
        const exportKind = kind ?? (stamper.kind === 'frame' ? 'SEED_PHRASE' : 'PRIVATE_KEY')
        if (exportKind !== 'SEED_PHRASE' && exportKind !== 'PRIVATE_KEY') {
          throw createWalletError(`Unknown export mode: ${String(exportKind)}`)
        }
        return withSession(async () => {
          // A live session and its wallet, read through the auth frame: this also loads that frame,
          // which must be there to stamp the export frame's request.
          const whoami = await client.whoami(stamper, user.orgId)
          const { walletId } = whoami
          if (!walletId) throw createWalletError(`Could not find wallet associated with ${user.address}`)
          const target: ExportTarget =
            exportKind === 'SEED_PHRASE'
              ? { kind: 'SEED_PHRASE', walletId }
              : { kind: 'PRIVATE_KEY', address: user.address }
          const config = await client.getSignerConfig()
          const frame = await openExportFrame({
            container,
            frameUrl: config.exportFrameUrl,
            ...(theme === undefined ? {} : { theme }),
          })
          try {
            const call = await frame.request({
              type: 'STAMP_EXPORT_REQUEST',
              target,
              organizationId: user.orgId,
              timestampMs: client.serverNow(),
            })
            const answer = await client.postStampedCall<ExportResult>({
              path: call.path,
              body: call.body,
              stamp: call.stamp,
            })
            const done = await pollActivity({
              activity: answer.activity,
              getActivity: async (activityId) =>
                (await client.getActivity(stamper, user.orgId, activityId))
                  .activity as typeof answer.activity,
            })
            const bundle = done.result?.exportBundle
            if (typeof bundle !== 'string')
              throw createWalletError(`Activity ${done.id} completed without an export bundle`)
            const injected = await frame
              .request({
                type: 'INJECT_WALLET_EXPORT_BUNDLE',
                bundle,
                organizationId: user.orgId,
                kind: exportKind,
              })
              .catch((error: unknown) => {
                throw createWalletError('Failed to inject wallet export bundle', { cause: error })
              })
            if (!injected.ok) throw createWalletError('Failed to inject wallet export bundle')
            return true
          } finally {
            frame.close()
          }
        })
      },

      async updateContact(change) {
        const user = requireUser()
        if (change.channel === 'email' && change.contact.trim().length === 0) {
          throw createWalletError('Email must not be empty. Use removeEmail() to remove email auth.')
        }
        if (change.channel === 'sms' && !change.verificationToken) {
          throw createWalletError('Verification token is required to change phone number.')
        }
        return withSession(async () => {
          const call = await stamper.stampContactChange({ change, timestampMs: client.serverNow() })
          const whoami = await client.postStampedCall<WhoamiResult>(call)
          const updated: SignerUser = { ...user, email: whoami.email ?? null, phone: whoami.phone ?? null }
          const { sessionExpiresAtMs } = get()
          if (storage && sessionExpiresAtMs !== null) {
            writePersistedSession(storage, storageKey, { user: updated, expiresAtMs: sessionExpiresAtMs })
          }
          set({ user: updated })
          return updated
        })
      },

      async sendVerificationCode({ channel, contact }) {
        return client.initOtp({ otpType: channel === 'email' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS', contact })
      },

      async verifyCode({ otpId, code }) {
        if (!otpId) throw createWalletError('Missing OTP ID')
        return client.verifyOtp({ otpId, otpCode: code.trim() })
      },

      async setEmail({ email, ...proof }) {
        return get().updateContact({ channel: 'email', contact: email, ...proof })
      },

      async setPhone({ phone, ...proof }) {
        return get().updateContact({ channel: 'sms', contact: phone, ...proof })
      },

      async removeEmail(proof) {
        return removeContact({ channel: 'email', ...proof })
      },

      async removePhone(proof) {
        return removeContact({ channel: 'sms', ...proof })
      },

      loginWithOAuth: (params) => oauth.loginWithOAuth(params),
      completeOAuthRedirect: (result) => oauth.completeOAuthRedirect(result),
      addOauthProvider: (params) => oauth.addOauthProvider(params),
      removeOauthProvider: (input) => oauth.removeOauthProvider(input),

      toViemAccount() {
        const user = requireUser()
        return createSignerAccount({
          address: user.address,
          signHash: (hash) => signRaw(user.address, hash, 'HASH_FUNCTION_NO_OP'),
        })
      },

      async signSolanaMessage(message) {
        const user = requireUser('Must be authenticated!')
        if (!user.solanaAddress) throw createWalletError('No Solana address available for the user')
        const signature = await signRaw(
          user.solanaAddress,
          `0x${bytesToHex(message)}`,
          'HASH_FUNCTION_NOT_APPLICABLE',
        )
        // Solana signatures are truncated to 64 bytes.
        return hexToBytes(signature.slice(2)).slice(0, 64)
      },

      toSolanaSigner,
    }
  })

  function connect(user: SignerUser, expiresAtMs: number): void {
    store.setState({ user, status: 'CONNECTED', error: null, otpId: null, sessionExpiresAtMs: expiresAtMs })
    scheduleExpiry(expiresAtMs)
  }

  function disconnect({ persist }: { persist: boolean }): void {
    clearTimeout(expiryTimer)
    expiryTimer = undefined
    if (persist && storage) clearPersistedSession(storage, storageKey)
    store.setState({ ...disconnectedFields })
  }

  function scheduleExpiry(expiresAtMs: number): void {
    clearTimeout(expiryTimer)
    const delay = Math.min(Math.max(expiresAtMs - now(), 0), maxTimerMs)
    expiryTimer = setTimeout(() => {
      if (now() >= expiresAtMs) disconnect({ persist: true })
      else scheduleExpiry(expiresAtMs)
    }, delay)
  }

  function applyStoredSession(session: PersistedSession | null): void {
    if (session !== null) {
      connect({ ...session.user, phone: null }, session.expiresAtMs)
    } else if (store.getState().user !== null) {
      disconnect({ persist: false })
    }
  }

  const onStorage = (event: Event) => {
    const key = (event as StorageEvent).key
    if (key !== storageKey && key !== null) return
    if (!storage) return
    // Another tab signed in (its frame shares this one's IndexedDB) or out.
    applyStoredSession(readPersistedSession(storage, storageKey, now()))
  }
  eventTarget?.addEventListener('storage', onStorage)

  if (initial !== null) connect({ ...initial.user, phone: null }, initial.expiresAtMs)
  else store.setState({ status: 'DISCONNECTED' })

  return Object.assign(store, {
    client,
    stamper,
    destroy() {
      clearTimeout(expiryTimer)
      eventTarget?.removeEventListener('storage', onStorage)
    },
  })
}

/** Whether the signer refused a pending MFA sign-in itself (expired, spent, another browser's). */
function isMfaContextRefused(error: unknown): boolean {
  return error instanceof AppError && error.details?.reason === 'MFA_CHALLENGE_REFUSED'
}

/**
 * Whether the signer refused the session itself: a 401 whose reason is a stamp or key refusal
 * (STAMP_…, SIGNATURE_…, TIMESTAMP_…, KEY_…) or names none. A 401 with another reason (a contact
 * change's spent verification token) refuses that request only; the session goes on.
 */
function isSessionRefused(error: unknown): boolean {
  if (!(error instanceof AppError) || error.code !== 'UNAUTHORIZED') return false
  const reason = error.details?.reason
  return typeof reason !== 'string' || /^(STAMP|SIGNATURE|TIMESTAMP|KEY)_/.test(reason)
}
