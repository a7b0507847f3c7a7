import type { MfaRequiredResult } from './multi-factor-types.ts'
import {
  buildOAuthUrl,
  getOAuthNonce,
  getOAuthPopupFeatures,
  type OAuthConfig,
  type OAuthParams,
  type OAuthPopupResult,
  redirectToOAuth,
  waitForOAuthPopup,
} from './oauth-login.ts'
import type { SignerClient } from './signer-client.ts'
import type { AuthLinkingStatus, SignerStatus, SignerUser, StepUp, StoredError } from './signer-types.ts'
import type { Stamper } from './stamper.ts'
import { toClientStepUp } from './to-client-step-up.ts'
import { createWalletError, toStoredError } from './wallet-error.ts'

/** How a social login ended (the popup outcomes of docs/signer.md#social-login). */
export type OAuthLoginOutcome =
  | { status: 'SUCCESS'; isNewUser: boolean }
  | { status: 'MFA_REQUIRED' }
  | { status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED'; linking: AuthLinkingStatus }
  | {
      status: 'FETCHED_ID_TOKEN_ONLY'
      idToken: string
      accessToken?: string
      providerName: string
      email?: string
    }

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
}

/**
 * Social login for the signer store (docs/signer.md#social-login): `loginWithOAuth` (popup or
 * redirect), `completeOAuthRedirect` for the auth-return parameters, `addOauthProvider` and
 * `removeOauthProvider` for Settings, and `linkPendingProvider`, which the store runs after every
 * completed login to add a provider whose account-linking code was just entered.
 */
export function createOAuthActions(host: OAuthActionsHost) {
  const { client, stamper } = host

  const requireUser = (): SignerUser => {
    const { user } = host.get()
    if (user === null) {
      throw createWalletError('Signer not authenticated. Please authenticate to use this signer', {
        code: 'UNAUTHORIZED',
      })
    }
    return user
  }

  /** What the popup (or the return address) answered, applied to the store. */
  const applyResult = async (result: OAuthPopupResult, params: { fetchIdTokenOnly?: boolean }) => {
    switch (result.status) {
      case 'SUCCESS': {
        if (params.fetchIdTokenOnly === true)
          throw createWalletError('Expected id token only from oauth response')
        if (result.bundle === undefined || result.orgId === undefined) {
          throw createWalletError('Expected user from oauth with redirect')
        }
        host.set({ isNewUser: result.isSignup === true })
        await host.finishLogin({ bundle: result.bundle, orgId: result.orgId })
        return { status: 'SUCCESS', isNewUser: result.isSignup === true } satisfies OAuthLoginOutcome
      }
      case 'MFA_REQUIRED': {
        if (params.fetchIdTokenOnly === true)
          throw createWalletError('Expected id token only from oauth response')
        const { encryptedPayload, multiFactors, orgId } = result
        if (!encryptedPayload || !orgId || multiFactors === undefined || multiFactors.length === 0) {
          throw createWalletError('Missing required query params for multi-factor sign-in')
        }
        host.awaitMfa({ status: 'MFA_REQUIRED', encryptedPayload, multiFactors, orgId })
        return { status: 'MFA_REQUIRED' } satisfies OAuthLoginOutcome
      }
      case 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED': {
        const { idToken, email, providerName, otpId, orgId } = result
        if (!idToken || !email || !providerName || !otpId || !orgId) {
          throw createWalletError('Missing required query params for auth linking prompt')
        }
        const linking: AuthLinkingStatus = {
          status: result.status,
          idToken,
          ...(result.accessToken === undefined ? {} : { accessToken: result.accessToken }),
          email,
          providerName,
          otpId,
          orgId,
        }
        host.awaitEmailCode({ orgId, otpId })
        host.set({ status: 'AWAITING_EMAIL_AUTH', otpId, authLinkingStatus: linking, isNewUser: false })
        return { status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED', linking } satisfies OAuthLoginOutcome
      }
      case 'FETCHED_ID_TOKEN_ONLY': {
        if (params.fetchIdTokenOnly !== true) {
          throw createWalletError('Should not get only id token when authenticating with oauth')
        }
        if (!result.idToken || !result.providerName)
          throw createWalletError('Expected id token only from oauth response')
        return {
          status: 'FETCHED_ID_TOKEN_ONLY',
          idToken: result.idToken,
          providerName: result.providerName,
          ...(result.accessToken === undefined ? {} : { accessToken: result.accessToken }),
          ...(result.email === undefined ? {} : { email: result.email }),
        } satisfies OAuthLoginOutcome
      }
      case 'ERROR':
        // OAuth failed: the message the popup (or the return address) carried.
        throw createWalletError(result.error ?? 'OAuth failed', { details: { reason: 'OAUTH_FAILED' } })
      default:
        throw createWalletError(`Unknown status: ${result.status}`)
    }
  }

  /**
   * Signs in with a social provider (the OAuth request params, docs/signer.md#social-login). Popup mode opens a 500×600
   * window at once (so the browser counts it as the click's), asks `prepare-oauth` for the PKCE
   * challenge and requestKey bound to the auth frame's key, sends the window to the provider and
   * waits for the callback page's message: AUTHENTICATING_OAUTH, then CONNECTED (SUCCESS),
   * AWAITING_MFA_AUTH (MFA_REQUIRED: the account has an authenticator app; validateMultiFactors
   * finishes, docs/signer.md#mfa-required), or
   * AWAITING_EMAIL_AUTH with `authLinkingStatus` (ACCOUNT_LINKING_CONFIRMATION_REQUIRED: enter the
   * e-mail code with submitOtpCode, the provider is then added in the background). With
   * `fetchIdTokenOnly` the status is left alone and the tokens are answered. Redirect mode leaves
   * the page (completeOAuthRedirect finishes on return).
   *
   * Rejects (error stored; the status goes back to what it was) with 'OAuth cancelled' (the
   * window closed, checked every 500 ms), the popup's error message, 'Failed to redirect to OAuth
   * provider' (still here 1 s after leaving), 'No auth provider found with id {id}', 'Default scope
   * not known for provider {id}', 'Unknown status: {status}', or the signer's message.
   */
  const loginWithOAuth = async (params: OAuthParams): Promise<OAuthLoginOutcome> => {
    const win = host.win ?? window
    const previous = host.get().status
    const popup =
      params.mode === 'popup' ? win.open('about:blank', 'quicklinks-oauth', getOAuthPopupFeatures(win)) : null
    if (params.fetchIdTokenOnly !== true) host.set({ status: 'AUTHENTICATING_OAUTH', error: null })
    else host.set({ error: null })
    try {
      if (params.mode === 'popup' && popup === null) {
        throw createWalletError('The sign-in window was blocked. Allow pop-ups for this site and try again.')
      }
      const targetPublicKey = await stamper.getPublicKey()
      const nonce = getOAuthNonce(targetPublicKey)
      const config: OAuthConfig = await client.prepareOauth({ nonce })
      const url = buildOAuthUrl(config, params, {
        targetPublicKey,
        expirationSeconds: host.expirationSeconds,
        currentUrl: win.location.href,
      })
      if (params.mode === 'redirect') return await redirectToOAuth(url, win)
      if (popup === null) throw createWalletError('OAuth cancelled')
      popup.location.href = url
      const result = await waitForOAuthPopup({
        win,
        popup,
        expectedOrigin: new URL(config.oauthCallbackUrl).origin,
        nonce,
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
   * readOAuthReturnParams): like the popup's outcomes. A linking prompt with a missing field logs
   * 'Missing required query params for auth linking prompt' and shows nothing (resolves undefined).
   */
  const completeOAuthRedirect = async (result: OAuthPopupResult): Promise<OAuthLoginOutcome | undefined> => {
    if (result.status === 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED') {
      const { idToken, email, providerName, otpId, orgId } = result
      if (!idToken || !email || !providerName || !otpId || !orgId) {
        console.warn('Missing required query params for auth linking prompt')
        return undefined
      }
    }
    const previous = host.get().status
    host.set({ status: 'AUTHENTICATING_OAUTH', error: null })
    try {
      return await applyResult(result, {})
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
   * After a login: a pending account-linking prompt for this account has its provider added in the
   * background (add-oauth-provider with the prompt's id token), then the prompt is cleared. A
   * failure is stored as the error; the login stands.
   */
  const linkPendingProvider = (): void => {
    const { authLinkingStatus: linking, user } = host.get()
    if (linking === null || user === null) return
    host.set({ authLinkingStatus: null })
    if (linking.orgId !== user.orgId) return
    // The step-up is the prompt's own code, just entered: it was sent to the identity's e-mail.
    void client
      .postAccessChange(
        'addOauthProvider',
        stamper,
        user.orgId,
        { providerName: linking.providerName, oidcToken: linking.idToken },
        { linkingOtpId: linking.otpId },
      )
      .catch((error: unknown) => host.set({ error: toStoredError(error) }))
  }

  return { loginWithOAuth, completeOAuthRedirect, addOauthProvider, removeOauthProvider, linkPendingProvider }
}
