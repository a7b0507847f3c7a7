import type { ContactChange, ExportKind } from '@quicklinks/protocol/frame-only-activities'
import type { Rpc, SendTransactionApi } from '@solana/kit'
import type { LocalAccount } from 'viem'
import type { MultiFactor, MultiFactorCode, MultiFactorEnrolment } from './multi-factor-types.ts'
import type { LinkedOAuthProvider, OAuthLoginOutcome } from './oauth-actions.ts'
import type { OAuthParams, OAuthPopupResult } from './oauth-login.ts'
import type { AddedPasskey } from './passkey-types.ts'
import type {
  AuthLinkingStatus,
  EmailMode,
  MfaStatus,
  SignerStatus,
  SignerUser,
  StepUp,
  StoredError,
} from './signer-types.ts'
import type { SolanaSendingSigner, SolanaSigner } from './solana/solana-signer.ts'

/**
 * The signer store's state and actions (createSignerStore in signer-store.ts composes them from the
 * action modules: sign-in-actions, passkey-actions, contact-actions, mfa-actions, oauth-actions,
 * export-actions, signing-actions).
 */
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
