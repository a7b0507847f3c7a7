import { describe, expect, it, vi } from 'vitest'
import {
  buildOAuthUrl,
  getOAuthNonce,
  type OAuthConfig,
  oauthResultMessageType,
  readOAuthReturnParams,
  redirectToOAuth,
  waitForOAuthPopup,
} from './oauth-login.ts'

const frameKey = `04${'ab'.repeat(64)}`
const config: OAuthConfig = {
  codeChallenge: 'challenge',
  requestKey: 'sealed',
  oauthCallbackUrl: 'https://pay.example/signer/v1/oauth-callback',
  authProviders: [
    {
      id: 'google',
      isCustomProvider: false,
      authEndpoint: 'https://accounts.example/auth',
      clientId: 'c1',
      scope: 'openid email',
    },
    { id: 'acme', isCustomProvider: true, authEndpoint: 'https://acme.example/authorize', clientId: 'c2' },
  ],
}

describe('social login in the SDK', () => {
  it('builds the authorization request: code, PKCE S256, select_account, the frame key nonce and the state', () => {
    const url = new URL(
      buildOAuthUrl(
        config,
        { authProviderId: 'google', mode: 'popup' },
        { attempt: 'attempt-1', targetPublicKey: frameKey, expirationSeconds: 900 },
      ),
    )
    expect(url.origin + url.pathname).toBe('https://accounts.example/auth')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'c1',
      redirect_uri: config.oauthCallbackUrl,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
      prompt: 'select_account',
      nonce: getOAuthNonce(frameKey),
    })
    const state = JSON.parse(
      atob((url.searchParams.get('state') ?? '').replace(/-/g, '+').replace(/_/g, '/')),
    )
    expect(state).toEqual({
      attempt: 'attempt-1',
      authProviderId: 'google',
      requestKey: 'sealed',
      targetPublicKey: frameKey,
      mode: 'popup',
      expirationSeconds: 900,
    })
    expect(getOAuthNonce(frameKey)).toMatch(/^[0-9a-f]{64}$/)
  })

  it('refuses an unknown provider and a custom provider without a scope, with the documented messages', () => {
    const input = { attempt: 'attempt-1', targetPublicKey: frameKey, expirationSeconds: 900 }
    expect(() => buildOAuthUrl(config, { authProviderId: 'nope', mode: 'popup' }, input)).toThrow(
      'No auth provider found with id nope',
    )
    expect(() => buildOAuthUrl(config, { authProviderId: 'acme', mode: 'popup' }, input)).toThrow(
      'Default scope not known for provider acme',
    )
    expect(
      buildOAuthUrl(config, { authProviderId: 'acme', mode: 'popup', scope: 'openid' }, input),
    ).toContain('scope=openid')
  })

  it("resolves with the callback's message for this nonce and attempt from the popup, and 'OAuth cancelled' when it closes", async () => {
    vi.useFakeTimers()
    try {
      const win = new EventTarget() as unknown as Window
      const popup = { closed: false }
      const waiting = waitForOAuthPopup({
        win,
        popup,
        expectedOrigin: 'https://pay.example',
        nonce: 'n1',
        attempt: 'a1',
      })
      const post = (origin: string, source: unknown, data: unknown) =>
        win.dispatchEvent(Object.assign(new Event('message'), { origin, source, data }))
      post('https://evil.example', popup, {
        type: oauthResultMessageType,
        nonce: 'n1',
        attempt: 'a1',
        result: { status: 'SUCCESS' },
      })
      post(
        'https://pay.example',
        {},
        { type: oauthResultMessageType, nonce: 'n1', attempt: 'a1', result: { status: 'SUCCESS' } },
      )
      post('https://pay.example', popup, {
        type: oauthResultMessageType,
        nonce: 'other',
        attempt: 'a1',
        result: { status: 'SUCCESS' },
      })
      // The same popup's message for another attempt (not this click's) is not this outcome.
      post('https://pay.example', popup, {
        type: oauthResultMessageType,
        nonce: 'n1',
        attempt: 'a2',
        result: { status: 'SUCCESS' },
      })
      post('https://pay.example', popup, {
        type: oauthResultMessageType,
        nonce: 'n1',
        attempt: 'a1',
        result: { status: 'ERROR', error: 'denied' },
      })
      await expect(waiting).resolves.toEqual({ status: 'ERROR', error: 'denied' })

      const cancelled = waitForOAuthPopup({
        win,
        popup: { closed: true },
        expectedOrigin: 'https://pay.example',
        nonce: 'n2',
        attempt: 'a2',
      })
      const assertion = expect(cancelled).rejects.toThrow('OAuth cancelled')
      await vi.advanceTimersByTimeAsync(1000)
      await assertion

      const location = { assign: vi.fn() }
      const redirect = redirectToOAuth('https://accounts.example/auth', { location } as unknown as Window)
      const redirectAssertion = expect(redirect).rejects.toThrow('Failed to redirect to OAuth provider')
      expect(location.assign).toHaveBeenCalledWith('https://accounts.example/auth')
      await vi.advanceTimersByTimeAsync(1000)
      await redirectAssertion
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads the auth-return parameters of a redirect-mode login', () => {
    expect(readOAuthReturnParams({})).toBeUndefined()
    expect(
      readOAuthReturnParams({
        status: 'SUCCESS',
        'oauth-bundle': 'b',
        'org-id': 'o',
        'is-signup': 'true',
        'auth-provider': 'dev',
        attempt: 'a1',
      }),
    ).toEqual({
      status: 'SUCCESS',
      bundle: 'b',
      orgId: 'o',
      isSignup: true,
      providerName: 'dev',
      attempt: 'a1',
    })
    expect(
      readOAuthReturnParams({
        status: 'MFA_REQUIRED',
        'org-id': 'o',
        'encrypted-payload': 'sealed',
        'multi-factors': JSON.stringify([{ multiFactorId: 'f1', multiFactorType: 'totp' }]),
      }),
    ).toEqual({
      status: 'MFA_REQUIRED',
      orgId: 'o',
      encryptedPayload: 'sealed',
      multiFactors: [{ multiFactorId: 'f1', multiFactorType: 'totp' }],
    })
    // A malformed factor list is left out (the store then refuses the result).
    expect(readOAuthReturnParams({ status: 'MFA_REQUIRED', 'multi-factors': '[{"x":1}]' })).toEqual({
      status: 'MFA_REQUIRED',
    })
  })
})
