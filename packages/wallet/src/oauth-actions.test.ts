import { describe, expect, it, vi } from 'vitest'
import { createOAuthActions, foreignOAuthOutcomeMessage, type OAuthActionsHost } from './oauth-actions.ts'
import { oauthAttemptStorageKey } from './oauth-attempt.ts'
import type { OAuthConfig } from './oauth-login.ts'
import type { SignerClient } from './signer-client.ts'
import type { AuthLinkingStatus, SignerStatus, StoredError } from './signer-types.ts'
import type { Stamper } from './stamper.ts'

// Redirect-mode social login returns (docs/signer.md#oauth-attempt): the outcome is acted on only
// with the secret this tab kept before it left. The signer's side is in apps/signer's
// oauth-routes.test.ts; the browser's in e2e/specs/auth-social.spec.ts.

const config: OAuthConfig = {
  codeChallenge: 'challenge',
  requestKey: 'sealed',
  oauthCallbackUrl: 'https://pay.example/signer/v1/oauth-callback',
  authProviders: [
    {
      id: 'dev',
      isCustomProvider: true,
      authEndpoint: 'https://idp.example/auth',
      clientId: 'c',
      scope: 'openid',
    },
  ],
}

const linkingOutcome = {
  status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED',
  email: 'victim@example.com',
  providerName: 'dev',
  otpId: 'otp-1',
  orgId: 'org-1',
}

function setUp() {
  const storage = new Map<string, string>()
  const attemptStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  }
  const assign = vi.fn()
  let state: {
    status: SignerStatus
    error: StoredError | null
    authLinkingStatus: AuthLinkingStatus | null
  } = { status: 'DISCONNECTED', error: null, authLinkingStatus: null }
  const awaitEmailCode = vi.fn()
  const host: OAuthActionsHost = {
    client: { prepareOauth: async () => config } as unknown as SignerClient,
    stamper: { getPublicKey: async () => `04${'ab'.repeat(64)}` } as unknown as Stamper,
    expirationSeconds: 900,
    get: () => ({ ...state, user: null }),
    set: (partial) => {
      state = { ...state, ...partial }
    },
    finishLogin: async () => undefined,
    awaitMfa: () => undefined,
    awaitEmailCode,
    withSession: (call) => call(),
    win: { location: { href: 'https://pay.example/login', assign } } as unknown as Window,
    attemptStorage,
  }
  return { actions: createOAuthActions(host), storage, assign, awaitEmailCode, getState: () => state }
}

describe('social login returns are this browser’s own', () => {
  it('a linking outcome this tab did not start is ignored with a clear message: no code step, nothing to link', async () => {
    const { actions, awaitEmailCode, getState } = setUp()
    for (const crafted of [linkingOutcome, { ...linkingOutcome, attempt: 'guessed' }]) {
      await expect(actions.completeOAuthRedirect(crafted)).rejects.toThrow(foreignOAuthOutcomeMessage)
    }
    expect(awaitEmailCode).not.toHaveBeenCalled()
    expect(getState()).toMatchObject({
      status: 'DISCONNECTED',
      authLinkingStatus: null,
      error: { message: foreignOAuthOutcomeMessage },
    })
  })

  it('a redirect keeps its attempt before it leaves; its outcome, carrying it, is acted on once', async () => {
    vi.useFakeTimers()
    try {
      const { actions, storage, assign, awaitEmailCode, getState } = setUp()
      const leaving = actions.loginWithOAuth({ authProviderId: 'dev', mode: 'redirect' })
      const left = expect(leaving).rejects.toThrow('Failed to redirect to OAuth provider')
      await vi.advanceTimersByTimeAsync(1000)
      await left
      const url = new URL(String(assign.mock.calls[0]?.[0]))
      const state = JSON.parse(Buffer.from(url.searchParams.get('state') ?? '', 'base64url').toString('utf8'))
      const kept = JSON.parse(storage.get(oauthAttemptStorageKey) ?? '{}')
      expect(kept.attempt).toMatch(/^[\w-]{43}$/)
      expect(state.attempt).toBe(kept.attempt)

      const outcome = { ...linkingOutcome, attempt: kept.attempt }
      expect(await actions.completeOAuthRedirect(outcome)).toMatchObject({
        status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED',
      })
      expect(awaitEmailCode).toHaveBeenCalledWith({ orgId: 'org-1', otpId: 'otp-1' })
      expect(getState().authLinkingStatus).toEqual({
        status: 'ACCOUNT_LINKING_CONFIRMATION_REQUIRED',
        email: 'victim@example.com',
        providerName: 'dev',
        otpId: 'otp-1',
        orgId: 'org-1',
      })
      // The same address again (history, a shared link) is not acted on twice.
      await expect(actions.completeOAuthRedirect(outcome)).rejects.toThrow(foreignOAuthOutcomeMessage)
    } finally {
      vi.useRealTimers()
    }
  })
})
