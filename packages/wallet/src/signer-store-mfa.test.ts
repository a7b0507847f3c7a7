import { afterEach, describe, expect, it, vi } from 'vitest'
import { keepOAuthAttempt } from './oauth-attempt.ts'
import type { SignerClient } from './signer-client.ts'
import { createSignerStore, type SignerStore } from './signer-store.ts'
import type { Stamper } from './stamper.ts'

// The store's MFA transitions where the signer's answer is what is under test: a server that
// answers MFA_REQUIRED, then (wrongly) no bundle. The real signer's flow is in
// apps/signer/test/wallet-sdk-mfa.test.ts.

const stamper: Stamper = {
  kind: 'key',
  getPublicKey: async () => `04${'aa'.repeat(64)}`,
  injectCredentialBundle: async () => undefined,
  stamp: async () => ({ stampHeaderName: 'X-Stamp', stampHeaderValue: 'stamp' }),
  stampContactChange: async () => {
    throw new Error('not used')
  },
  stampContactRemoval: async () => {
    throw new Error('not used')
  },
  stampAccessChange: async ({ call, parameters, stepUp }) => ({
    path: call,
    body: JSON.stringify({ call, parameters, stepUp }),
    stamp: { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'stamp' },
  }),
  reset: async () => undefined,
}

const mfaRequired = {
  status: 'MFA_REQUIRED' as const,
  encryptedPayload: 'sealed',
  multiFactors: [{ multiFactorId: 'factor-1', multiFactorType: 'totp' }],
  orgId: 'org-1',
}

const stores: SignerStore[] = []
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy()
  vi.unstubAllGlobals()
})

function setUp(validateAnswer: unknown) {
  const validateCalls: unknown[] = []
  const client = {
    baseUrl: 'http://localhost',
    serverNow: () => Date.now(),
    signup: async () => ({ orgId: 'org-1', otpId: 'otp-1' }),
    otp: async () => mfaRequired,
    openMagicLink: async () => mfaRequired,
    validateMultiFactors: async (input: unknown) => {
      validateCalls.push(input)
      return validateAnswer
    },
  } as unknown as SignerClient
  const store = createSignerStore({ client, stamper, storage: null, eventTarget: null })
  stores.push(store)
  return { store, validateCalls }
}

describe('signer store: MFA', () => {
  it('a magic link answered MFA_REQUIRED waits in AWAITING_MFA_AUTH with the first factor', async () => {
    const { store } = setUp({})
    await store.getState().completeMagicLink({ bundle: 'token', orgId: 'org-1' })
    expect(store.getState()).toMatchObject({
      status: 'AWAITING_MFA_AUTH',
      mfaStatus: { mfaRequired: true, mfaFactorId: 'factor-1' },
    })
  })

  it('sends the sealed payload, the factor and the frame key; no bundle in the answer is an error', async () => {
    const { store, validateCalls } = setUp({ payload: {} })
    await store.getState().authenticateWithEmail({ email: 'ada@example.com' })
    await store.getState().submitOtpCode('123456')
    expect(store.getState().status).toBe('AWAITING_MFA_AUTH')
    await expect(store.getState().validateMultiFactors({ multiFactorCode: ' 654 321 ' })).rejects.toThrow(
      'Request to validateMultiFactors did not return a credential bundle',
    )
    expect(validateCalls).toEqual([
      {
        encryptedPayload: 'sealed',
        multiFactors: [{ multiFactorId: 'factor-1', multiFactorCode: '654321' }],
        targetPublicKey: `04${'aa'.repeat(64)}`,
      },
    ])
    expect(store.getState()).toMatchObject({
      status: 'DISCONNECTED',
      error: { message: 'Request to validateMultiFactors did not return a credential bundle' },
    })
  })

  it('a social login answered MFA_REQUIRED (redirect return) waits in AWAITING_MFA_AUTH and sends its payload', async () => {
    const { store, validateCalls } = setUp({ payload: {} })
    // The redirect this tab started (docs/signer.md#oauth-attempt), once per return.
    const storage = new Map<string, string>()
    vi.stubGlobal('sessionStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    })
    const started = () =>
      keepOAuthAttempt(globalThis.sessionStorage, {
        attempt: 'a1',
        fetchIdTokenOnly: false,
        expiresAtMs: Date.now() + 60_000,
      })
    started()
    await expect(
      store.getState().completeOAuthRedirect({ status: 'MFA_REQUIRED', orgId: 'org-1', attempt: 'a1' }),
    ).rejects.toThrow('Missing required query params for multi-factor sign-in')
    expect(store.getState().status).toBe('DISCONNECTED')
    started()
    expect(
      await store.getState().completeOAuthRedirect({ ...mfaRequired, providerName: 'dev', attempt: 'a1' }),
    ).toEqual({
      status: 'MFA_REQUIRED',
    })
    expect(store.getState()).toMatchObject({
      status: 'AWAITING_MFA_AUTH',
      mfaStatus: { mfaRequired: true, mfaFactorId: 'factor-1' },
    })
    await expect(store.getState().validateMultiFactors({ multiFactorCode: '123456' })).rejects.toThrow(
      'Request to validateMultiFactors did not return a credential bundle',
    )
    expect(validateCalls).toEqual([
      {
        encryptedPayload: 'sealed',
        multiFactors: [{ multiFactorId: 'factor-1', multiFactorCode: '123456' }],
        targetPublicKey: `04${'aa'.repeat(64)}`,
      },
    ])
  })

  it('factor management needs a signed-in user', async () => {
    const { store } = setUp({})
    await expect(store.getState().getMfaFactors()).rejects.toThrow(/not authenticated/)
  })
})
