import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { createWalletError } from './wallet-error.ts'

/** Popup window size (docs/signer.md#social-login). */
export const oauthPopupWidth = 500
export const oauthPopupHeight = 600
/** How often the popup is checked for closure. */
export const oauthPopupPollMs = 500
/** How long a redirect may take to leave the page before it counts as failed. */
export const oauthRedirectTimeoutMs = 1000

/** The `type` of the callback page's message to its opener (the signer's render-oauth-callback-page.ts). */
export const oauthResultMessageType = 'QUICKLINKS_OAUTH_RESULT'

/** One provider of the OAuth config, with what the signer adds (scope, claims, fixed parameters). */
export type OAuthProviderInfo = {
  id: string
  isCustomProvider: boolean
  authEndpoint: string
  clientId: string
  scope?: string
  claims?: string
  otherParameters?: Record<string, string>
}

/** The OAuth config (docs/signer.md#prepare-oauth), with the callback address the signer expects. */
export type OAuthConfig = {
  codeChallenge: string
  requestKey: string
  authProviders: OAuthProviderInfo[]
  oauthCallbackUrl: string
}

/** The OAuth request params (docs/signer.md#social-login). */
export type OAuthParams = {
  authProviderId: string
  isCustomProvider?: boolean
  auth0Connection?: string
  scope?: string
  claims?: string
  otherParameters?: Record<string, string>
  mode: 'popup' | 'redirect'
  /** Redirect mode: where the app comes back to (same origin; default the current page). */
  redirectUrl?: string
  expirationSeconds?: number
  fetchIdTokenOnly?: boolean
}

/** The OAuth popup result (docs/signer.md#oauth-callback). */
export type OAuthPopupResult = {
  status: string
  /** Redirect mode: the per-attempt secret the callback echoed (see {@link createOAuthAttempt}). */
  attempt?: string
  /** FETCHED_ID_TOKEN_ONLY only. */
  idToken?: string
  accessToken?: string
  email?: string
  providerName?: string
  otpId?: string
  orgId?: string
  bundle?: string
  isSignup?: boolean
  /** MFA_REQUIRED: the sealed pending sign-in and the factors to ask for (docs/signer.md#mfa-required). */
  encryptedPayload?: string
  multiFactors?: { multiFactorId: string; multiFactorType: string }[]
  error?: string
}

/** The OAuth nonce of a frame key: hex SHA-256 of its lower-case hex (docs/signer.md#social-login). */
export function getOAuthNonce(targetPublicKey: string): string {
  return bytesToHex(sha256(utf8ToBytes(targetPublicKey.toLowerCase())))
}

/**
 * A fresh per-attempt secret (32 random bytes, base64url; docs/signer.md#oauth-attempt): the
 * browser keeps it before it leaves for the provider, the `state` carries it, and the outcome is
 * acted on only when it comes back with it.
 */
export function createOAuthAttempt(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
}

/**
 * The provider's authorization URL (docs/signer.md#social-login): response_type code, PKCE S256 with the
 * signer's challenge, prompt select_account, the nonce of the frame key, and a `state` the signer's
 * callback reads (the per-attempt secret, provider, requestKey, frame key, mode, redirect address,
 * session length).
 * Throws 'No auth provider found with id {id}' or 'Default scope not known for provider {id}'.
 */
export function buildOAuthUrl(
  config: OAuthConfig,
  params: OAuthParams,
  input: { attempt: string; targetPublicKey: string; expirationSeconds: number; currentUrl?: string },
): string {
  const provider = config.authProviders.find((candidate) => candidate.id === params.authProviderId)
  if (provider === undefined) {
    throw createWalletError(`No auth provider found with id ${params.authProviderId}`)
  }
  const scope = params.scope ?? provider.scope
  if (scope === undefined) throw createWalletError(`Default scope not known for provider ${provider.id}`)
  const state = {
    attempt: input.attempt,
    authProviderId: provider.id,
    requestKey: config.requestKey,
    targetPublicKey: input.targetPublicKey,
    mode: params.mode,
    expirationSeconds: params.expirationSeconds ?? input.expirationSeconds,
    ...(params.fetchIdTokenOnly === true ? { fetchIdTokenOnly: true } : {}),
    ...(params.mode === 'redirect' ? { redirectUrl: params.redirectUrl ?? input.currentUrl ?? '/' } : {}),
  }
  const url = new URL(provider.authEndpoint)
  const search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: config.oauthCallbackUrl,
    response_type: 'code',
    scope,
    code_challenge: config.codeChallenge,
    code_challenge_method: 'S256',
    prompt: 'select_account',
    nonce: getOAuthNonce(input.targetPublicKey),
    state: base64UrlJson(state),
    ...(provider.otherParameters ?? {}),
    ...(params.otherParameters ?? {}),
  })
  const claims = params.claims ?? provider.claims
  if (claims !== undefined) search.set('claims', claims)
  if (params.auth0Connection !== undefined) search.set('connection', params.auth0Connection)
  for (const [name, value] of search) url.searchParams.set(name, value)
  return url.href
}

function base64UrlJson(value: unknown): string {
  return toBase64Url(utf8ToBytes(JSON.stringify(value)))
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The popup's window features: 500×600, centred on the opener. */
export function getOAuthPopupFeatures(
  win: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'>,
): string {
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - oauthPopupWidth) / 2))
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - oauthPopupHeight) / 2))
  return `popup=yes,width=${oauthPopupWidth},height=${oauthPopupHeight},left=${left},top=${top}`
}

/**
 * Waits for the callback page in `popup` to post its result: only a message from `expectedOrigin`
 * (the callback's), from that popup, for this `nonce` and this attempt's secret. Rejects with 'OAuth cancelled' when the
 * popup is closed first (checked every 500 ms; closed on two checks in a row, so a message posted
 * just before the page closed itself still arrives).
 */
export function waitForOAuthPopup(input: {
  win: Pick<Window, 'addEventListener' | 'removeEventListener'>
  popup: Pick<Window, 'closed'>
  expectedOrigin: string
  nonce: string
  attempt: string
  pollMs?: number
}): Promise<OAuthPopupResult> {
  return new Promise((resolve, reject) => {
    let isDone = false
    const finish = () => {
      isDone = true
      clearInterval(poll)
      input.win.removeEventListener('message', onMessage)
    }
    const onMessage = (event: Event) => {
      const message = event as MessageEvent
      if (message.origin !== input.expectedOrigin || message.source !== input.popup) return
      const data = message.data as {
        type?: unknown
        nonce?: unknown
        attempt?: unknown
        result?: unknown
      } | null
      if (data === null || typeof data !== 'object' || data.type !== oauthResultMessageType) return
      if (data.nonce !== input.nonce || data.attempt !== input.attempt) return
      if (typeof data.result !== 'object' || data.result === null) return
      finish()
      resolve(data.result as OAuthPopupResult)
    }
    input.win.addEventListener('message', onMessage)
    // The callback page posts its message, then closes: a poll may see the window closed before
    // the message is delivered, so closure counts once it is seen on two polls in a row.
    let wasClosed = false
    const poll = setInterval(() => {
      if (isDone) return
      if (!input.popup.closed) {
        wasClosed = false
        return
      }
      if (!wasClosed) {
        wasClosed = true
        return
      }
      finish()
      reject(createWalletError('OAuth cancelled'))
    }, input.pollMs ?? oauthPopupPollMs)
  })
}

/**
 * Leaves for the provider (redirect mode). The page normally unloads; if it is still here after
 * 1 s, rejects with 'Failed to redirect to OAuth provider'.
 */
export function redirectToOAuth(
  url: string,
  win: Pick<Window, 'location'>,
  timeoutMs: number = oauthRedirectTimeoutMs,
): Promise<never> {
  win.location.assign(url)
  return new Promise((_resolve, reject) => {
    setTimeout(() => reject(createWalletError('Failed to redirect to OAuth provider')), timeoutMs)
  })
}

/** The auth-return parameters (docs/signer.md#oauth-callback) of a redirect-mode social login, as a popup result; undefined when there are none. */
export function readOAuthReturnParams(
  params: Readonly<Record<string, string | undefined>>,
): OAuthPopupResult | undefined {
  const status = params.status
  if (status === undefined) return undefined
  const pick = (...names: string[]) => names.map((name) => params[name]).find((value) => value !== undefined)
  const isSignup = pick('is-signup', 'isSignup')
  const result: OAuthPopupResult = { status }
  const fields: [keyof OAuthPopupResult, string | undefined][] = [
    ['bundle', pick('oauth-bundle', 'oauthBundle')],
    ['orgId', pick('org-id', 'orgId')],
    ['idToken', pick('id_token', 'idToken')],
    ['accessToken', pick('access_token', 'accessToken')],
    ['otpId', pick('otp_id', 'otpId')],
    ['email', pick('email')],
    ['providerName', pick('auth-provider', 'authProvider')],
    ['error', pick('oauth_error', 'oauthError')],
    ['encryptedPayload', pick('encrypted-payload', 'encryptedPayload')],
    ['attempt', pick('attempt')],
  ]
  for (const [name, value] of fields) if (value !== undefined) Object.assign(result, { [name]: value })
  if (isSignup !== undefined) result.isSignup = isSignup === 'true'
  const multiFactors = readMultiFactors(pick('multi-factors', 'multiFactors'))
  if (multiFactors !== undefined) result.multiFactors = multiFactors
  return result
}

/** The `multi-factors` auth-return parameter (JSON `[{multiFactorId, multiFactorType}]`); undefined when absent or not that shape. */
function readMultiFactors(value: string | undefined): OAuthPopupResult['multiFactors'] {
  if (value === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed)) return undefined
  const factors: { multiFactorId: string; multiFactorType: string }[] = []
  for (const entry of parsed as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return undefined
    const { multiFactorId, multiFactorType } = entry as Record<string, unknown>
    if (typeof multiFactorId !== 'string' || typeof multiFactorType !== 'string') return undefined
    factors.push({ multiFactorId, multiFactorType })
  }
  return factors
}
