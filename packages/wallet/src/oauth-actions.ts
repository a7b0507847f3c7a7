import type { MfaRequiredResult } from './multi-factor-types.ts'
import { keepOAuthAttempt, oauthAttemptLifetimeMs, takeOAuthAttempt } from './oauth-attempt.ts'
import {
  buildOAuthUrl,
  createOAuthAttempt,
  getOAuthNonce,
  getOAuthPopupFeatures,
  type OAuthConfig,
  type OAuthParams,
  type OAuthPopupResult,
  redirectToOAuth,
  waitForOAuthPopup,
} from './oauth-login.ts'
import { applyOAuthResult, type OAuthLoginOutcome } from './oauth-outcome.ts'
import type { SessionStorageLike } from './persisted-session.ts'
import type { SignerClient } from './signer-client.ts'
import type { AuthLinkingStatus, SignerStatus, SignerUser, StepUp, StoredError } from './signer-types.ts'
import type { Stamper } from './stamper.ts'
import { toClientStepUp } from './to-client-step-up.ts'
import { createWalletError, toStoredError } from './wallet-error.ts'

export type { OAuthLoginOutcome }

/** A provider identity linked to the user (what add-oauth-provider answers). */
export type LinkedOAuthProvider = {
  providerId: string
  issuer: string
  subject: string
  email: string | null
}

/** The store's parts the social-login actions work with (signer-store.ts passes its own). */
export type OAuthActionsHost = {
  client: SignerClient
  stamper: Stamper
  expirationSeconds: number
  get(): {
    status: SignerStatus
    user: SignerUser | null
    authLinkingStatus: AuthLinkingStatus | null
  }
  set(partial: {
    status?: SignerStatus
    error?: StoredError | null
    otpId?: string | null
    isNewUser?: boolean | undefined
    authLinkingStatus?: AuthLinkingStatus | null
  }): void
  /** Injects the bundle, reads the user, CONNECTED (the store's finishLogin). */
  finishLogin(input: { bundle: string; orgId: string }): Promise<void>
  /** Keeps an MFA_REQUIRED answer as the pending sign-in, AWAITING_MFA_AUTH (for validateMultiFactors). */
  awaitMfa(answer: MfaRequiredResult & { orgId: string }): void
  /** Keeps an e-mail code sent by the signer as the pending sign-in, for submitOtpCode. */
  awaitEmailCode(input: { orgId: string; otpId: string }): void
  /** A stamped call that signs out when the signer refuses the session. */
  withSession<T>(call: () => Promise<T>): Promise<T>
  /** Default `globalThis.window`. */
  win?: Window
  /** Where a redirect keeps its attempt (oauth-attempt.ts); default `globalThis.sessionStorage`. */
  attemptStorage?: SessionStorageLike | null
  now?: () => number
}

/** The message of an outcome this browser did not start (a crafted or stale return address). */
export const foreignOAuthOutcomeMessage =
  'This sign-in result was not started in this browser, so it was ignored. Sign in again.'

/**
 * Social login for the signer store (docs/signer.md#social-login): `loginWithOAuth` (popup or
 * redirect), `completeOAuthRedirect` for the auth-return parameters, `addOauthProvider` and
 * `removeOauthProvider` for Settings, and `clearLinkingPrompt`, which the store runs after every
 * completed login (the signer linked the provider at the account-linking code).
 */
export function createOAuthActions(host: OAuthActionsHost) {
  const { client, stamper } = host
  const now = host.now ?? Date.now
  const getAttemptStorage = (): SessionStorageLike | undefined =>
    host.attemptStorage === undefined
      ? (globalThis.sessionStorage as SessionStorageLike | undefined)
      : (host.attemptStorage ?? undefined)

  const requireUser = (): SignerUser => {
    const { user } = host.get()
    if (user === null) {
      throw createWalletError('Signer not authenticated. Please authenticate to use this signer', {
        code: 'UNAUTHORIZED',
      })
    }
    return user
  }

  const applyResult = (result: OAuthPopupResult, params: { fetchIdTokenOnly?: boolean }) =>
    applyOAuthResult(host, result, params)

  /**
   * Signs in with a social provider (the OAuth request params, docs/signer.md#social-login). Popup mode opens a 500×600
   * window at once (so the browser counts it as the click's), asks `prepare-oauth` for the PKCE
   * challenge and requestKey bound to the auth frame's key, sends the window to the provider and
   * waits for the callback page's message: AUTHENTICATING_OAUTH, then CONNECTED (SUCCESS),
   * AWAITING_MFA_AUTH (MFA_REQUIRED: the account has an authenticator app; validateMultiFactors
   * finishes, docs/signer.md#mfa-required), or
   * AWAITING_EMAIL_AUTH with `authLinkingStatus` (ACCOUNT_LINKING_CONFIRMATION_REQUIRED: enter the
   * e-mail code with submitOtpCode; the signer links the provider at that code). With
   * `fetchIdTokenOnly` the status is left alone and the tokens are answered. Each attempt has its
   * own secret (docs/signer.md#oauth-attempt): the popup's message must carry it; redirect mode
   * keeps it in sessionStorage and leaves the page (completeOAuthRedirect finishes on return).
   *
   * Rejects (error stored; the status goes back to what it was) with 'OAuth cancelled' (the
   * window closed, checked every 500 ms), the popup's error message, 'Failed to redirect to OAuth
   * provider' (still here 1 s after leaving), 'No auth provider found with id {id}', 'Default scope
   * not known for provider {id}', 'Unknown status: {status}', or the signer's message.
   */
  const loginWithOAuth = async (params: OAuthParams): Promise<OAuthLoginOutcome> => {
    const win = host.win ?? window
    const previous = host.get().status
    // A new window each time ('_blank', not a name): a step-up popup that is still closing after its
    // message would otherwise be reused by the link that follows it, and close under it.
    const popup =
      params.mode === 'popup' ? win.open('about:blank', '_blank', getOAuthPopupFeatures(win)) : null
    if (params.fetchIdTokenOnly !== true) host.set({ status: 'AUTHENTICATING_OAUTH', error: null })
    else host.set({ error: null })
    try {
      if (params.mode === 'popup' && popup === null) {
        throw createWalletError('The sign-in window was blocked. Allow pop-ups for this site and try again.')
      }
      const targetPublicKey = await stamper.getPublicKey()
      const nonce = getOAuthNonce(targetPublicKey)
      const config: OAuthConfig = await client.prepareOauth({ nonce })
      const attempt = createOAuthAttempt()
      const url = buildOAuthUrl(config, params, {
        attempt,
        targetPublicKey,
        expirationSeconds: host.expirationSeconds,
        currentUrl: win.location.href,
      })
      if (params.mode === 'redirect') {
        const storage = getAttemptStorage()
        if (storage === undefined) throw createWalletError('Failed to redirect to OAuth provider')
        keepOAuthAttempt(storage, {
          attempt,
          fetchIdTokenOnly: params.fetchIdTokenOnly === true,
          expiresAtMs: now() + oauthAttemptLifetimeMs,
        })
        return await redirectToOAuth(url, win)
      }
      if (popup === null) throw createWalletError('OAuth cancelled')
      popup.location.href = url
      const result = await waitForOAuthPopup({
        win,
        popup,
        expectedOrigin: new URL(config.oauthCallbackUrl).origin,
        nonce,
        attempt,
      })
      return await applyResult(result, params)
    } catch (error) {
      if (popup !== null && !popup.closed) popup.close()
      // Social login keeps the status it started from (signed out, or signed in when linking).
      const status = host.get().status
      host.set({
        error: toStoredError(error),
        status:
          status === 'AUTHENTICATING_OAUTH'
            ? previous === 'CONNECTED'
              ? 'CONNECTED'
              : 'DISCONNECTED'
            : status,
      })
      throw error
    }
  }

  /**
   * Finishes a redirect-mode social login from the auth-return parameters read on load (see
   * readOAuthReturnParams): like the popup's outcomes, and only when they carry the secret of the
   * attempt this tab kept before it left (docs/signer.md#oauth-attempt); the kept attempt is spent
   * either way. Rejects with {@link foreignOAuthOutcomeMessage} (`details.reason`
   * OAUTH_ATTEMPT_UNKNOWN; nothing changes) for any other outcome: a crafted link, a stale or
   * replayed address. A linking prompt with a missing field logs 'Missing required query params
   * for auth linking prompt' and shows nothing (resolves undefined).
   */
  const completeOAuthRedirect = async (result: OAuthPopupResult): Promise<OAuthLoginOutcome | undefined> => {
    const storage = getAttemptStorage()
    const pending = storage === undefined ? undefined : takeOAuthAttempt(storage, result.attempt, now())
    if (pending === undefined) {
      const error = createWalletError(foreignOAuthOutcomeMessage, {
        details: { reason: 'OAUTH_ATTEMPT_UNKNOWN' },
      })
      host.set({ error: toStoredError(error) })
      throw error
    }
    if (result.status === 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED') {
      const { email, providerName, otpId, orgId } = result
      if (!email || !providerName || !otpId || !orgId) {
        console.warn('Missing required query params for auth linking prompt')
        return undefined
      }
    }
    const previous = host.get().status
    host.set({ status: 'AUTHENTICATING_OAUTH', error: null })
    try {
      return await applyResult(result, { fetchIdTokenOnly: pending.fetchIdTokenOnly })
    } catch (error) {
      host.set({
        error: toStoredError(error),
        status: previous === 'CONNECTED' ? 'CONNECTED' : 'DISCONNECTED',
      })
      throw error
    }
  }

  /**
   * Links another provider to the signed-in user: an id-token-only social login (popup), then the
   * stamped add-oauth-provider. Rejects with 'Expected id token only from oauth response', 'OAuth
   * cancelled', the popup's message, or the signer's ('…already signs in to another wallet.').
   */
  const addOauthProvider = async (
    params: Omit<OAuthParams, 'fetchIdTokenOnly'> & { stepUp: StepUp },
  ): Promise<LinkedOAuthProvider> => {
    const user = requireUser()
    const { stepUp, ...oauthParams } = params
    const outcome = await loginWithOAuth({ ...oauthParams, fetchIdTokenOnly: true })
    if (outcome.status !== 'FETCHED_ID_TOKEN_ONLY')
      throw createWalletError('Expected id token only from oauth response')
    const answer = await host.withSession(() =>
      client.postAccessChange<{ oauthProvider: LinkedOAuthProvider }>(
        'addOauthProvider',
        stamper,
        user.orgId,
        { providerName: outcome.providerName, oidcToken: outcome.idToken },
        toClientStepUp(stepUp),
      ),
    )
    return answer.oauthProvider
  }

  /** Unlinks a provider identity, with the step-up; the signer refuses the last way to sign in. */
  const removeOauthProvider = async (input: {
    issuer: string
    subject: string
    stepUp: StepUp
  }): Promise<void> => {
    const user = requireUser()
    await host.withSession(() =>
      client.postAccessChange(
        'removeOauthProvider',
        stamper,
        user.orgId,
        { issuer: input.issuer, subject: input.subject },
        toClientStepUp(input.stepUp),
      ),
    )
  }

  /**
   * After a login: the account-linking prompt is done with (the signer linked the provider when its
   * e-mail code was used, docs/signer.md#oauth-callback), so it is cleared.
   */
  const clearLinkingPrompt = (): void => {
    if (host.get().authLinkingStatus !== null) host.set({ authLinkingStatus: null })
  }

  return { loginWithOAuth, completeOAuthRedirect, addOauthProvider, removeOauthProvider, clearLinkingPrompt }
}
