import { AppError } from '@quicklinks/core/app-error'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { signerStorageKey, signerStorageVersion } from './persisted-session.ts'
import type { SignerClient } from './signer-client.ts'
import { createSignerStore, type SignerStore } from './signer-store.ts'
import type { SignerStatus, WhoamiResult } from './signer-types.ts'
import type { Stamper } from './stamper.ts'

const whoami: WhoamiResult = {
  orgId: 'org-1',
  userId: 'user-1',
  address: '0x1111111111111111111111111111111111111111',
  solanaAddress: 'So1anaAddress1111111111111111111111111111111',
  email: 'ada@example.com',
  phone: null,
  walletId: 'wallet-1',
}

function createMemoryStorage() {
  const entries = new Map<string, string>()
  return {
    entries,
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
  }
}

function createFakeStamper(): Stamper & { injected: unknown[]; resets: number } {
  const stamper = {
    kind: 'key' as const,
    injected: [] as unknown[],
    resets: 0,
    getPublicKey: async () => `04${'aa'.repeat(64)}`,
    injectCredentialBundle: async (input: { bundle: string }) => {
      if (input.bundle === 'bad-bundle') throw new AppError('BAD_REQUEST', { userMessage: 'nope' })
      stamper.injected.push(input)
    },
    stamp: async () => ({ stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'stamp' }),
    stampContactChange: async () => ({
      path: 'update-email-auth',
      body: '{}',
      stamp: { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'stamp' },
    }),
    stampAccessChange: async (input: Parameters<Stamper['stampAccessChange']>[0]) => ({
      path: input.call,
      body: JSON.stringify(input),
      stamp: { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'stamp' },
    }),
    stampContactRemoval: async () => ({
      path: 'remove-email-auth',
      body: '{}',
      stamp: { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'stamp' },
    }),
    reset: async () => {
      stamper.resets += 1
    },
  }
  return stamper
}

function createFakeClient(overrides: Partial<SignerClient> = {}) {
  const calls: { method: string; input: unknown }[] = []
  const record =
    <T>(method: string, answer: (input: never) => T) =>
    async (...args: unknown[]) => {
      const input = args.length > 1 ? args.slice(1) : args[0]
      calls.push({ method, input })
      return answer(input as never)
    }
  const client = {
    baseUrl: 'http://localhost',
    serverNow: () => Date.now(),
    lookup: record('lookup', () => ({ orgId: 'org-1' })),
    auth: record('auth', () => ({ orgId: 'org-1', otpId: 'otp-1' })),
    signup: record('signup', () => ({
      orgId: 'org-1',
      otpId: 'otp-1',
      address: whoami.address,
      userId: whoami.userId,
      solanaAddress: whoami.solanaAddress,
    })),
    otp: record('otp', (input: { otpCode: string }) => {
      if (input.otpCode === '000000') {
        throw new AppError('OTP_INVALID', { userMessage: 'That code is not right. You have 2 tries left.' })
      }
      return { credentialBundle: 'good-bundle', isNewUser: true }
    }),
    // The signer answers a link's token with a bundle; here the token stands for the bundle itself.
    openMagicLink: record('openMagicLink', (input: { token: string }) => ({
      credentialBundle: input.token,
      isNewUser: false,
      orgId: 'org-1',
    })),
    whoami: record('whoami', () => whoami),
    revokeSession: record('revokeSession', () => ({ revoked: true })),
    signPayload: record('signPayload', () => ({
      activity: { id: 'act-1', type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', status: 'ACTIVITY_STATUS_PENDING' },
    })),
    getActivity: record('getActivity', () => ({
      activity: {
        id: 'act-1',
        type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        status: 'ACTIVITY_STATUS_COMPLETED',
        result: { signature: `0x${'11'.repeat(64)}` },
      },
    })),
    ...overrides,
  } as unknown as SignerClient
  return { client, calls }
}

const stores: SignerStore[] = []
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy()
  vi.useRealTimers()
})

function setUp(
  options: {
    storage?: ReturnType<typeof createMemoryStorage>
    client?: Partial<SignerClient>
    eventTarget?: EventTarget
  } = {},
) {
  const storage = options.storage ?? createMemoryStorage()
  const stamper = createFakeStamper()
  const { client, calls } = createFakeClient(options.client)
  const store = createSignerStore({ client, stamper, storage, eventTarget: options.eventTarget ?? null })
  stores.push(store)
  const statuses: SignerStatus[] = []
  store.subscribe((state, previous) => {
    if (state.status !== previous.status) statuses.push(state.status)
  })
  return { store, storage, stamper, calls, statuses }
}

const storedSession = (expiresAtMs: number, version = signerStorageVersion) =>
  JSON.stringify({
    version,
    state: {
      user: {
        address: whoami.address,
        solanaAddress: whoami.solanaAddress,
        orgId: 'org-1',
        userId: 'user-1',
        email: whoami.email,
      },
      expiresAtMs,
    },
  })

describe('signer store: initialisation', () => {
  it('starts DISCONNECTED without a stored session', () => {
    const { store } = setUp()
    expect(store.getState().status).toBe('DISCONNECTED')
    expect(store.getState().user).toBeNull()
  })

  it('starts CONNECTED with a stored, unexpired session user', () => {
    const storage = createMemoryStorage()
    storage.setItem(signerStorageKey, storedSession(Date.now() + 60_000))
    const { store } = setUp({ storage })
    expect(store.getState().status).toBe('CONNECTED')
    expect(store.getState().user).toMatchObject({
      address: whoami.address,
      orgId: 'org-1',
      email: whoami.email,
    })
  })

  it('drops an expired session, or one stored by another version', () => {
    for (const value of [
      storedSession(Date.now() - 1),
      storedSession(Date.now() + 60_000, signerStorageVersion + 1),
      '{nope',
    ]) {
      const storage = createMemoryStorage()
      storage.setItem(signerStorageKey, value)
      const { store } = setUp({ storage })
      expect(store.getState().status).toBe('DISCONNECTED')
      expect(storage.entries.has(signerStorageKey)).toBe(false)
    }
  })
})

describe('signer store: e-mail and SMS codes', () => {
  it('goes AUTHENTICATING_EMAIL → AWAITING_EMAIL_AUTH → AWAITING_OTP_AUTH → CONNECTED', async () => {
    const { store, statuses, calls, stamper, storage } = setUp()
    await store.getState().authenticateWithEmail({ email: 'ada@example.com' })
    expect(store.getState()).toMatchObject({ status: 'AWAITING_EMAIL_AUTH', otpId: 'otp-1', error: null })
    // The account-creation call for every contact: nothing to branch on (docs/decisions/0019).
    expect(calls.map((call) => call.method)).toEqual(['signup'])
    expect(store.getState().isNewUser).toBeUndefined()
    expect(calls[0]?.input).toEqual({
      email: 'ada@example.com',
      emailMode: 'otp',
      targetPublicKey: `04${'aa'.repeat(64)}`,
      expirationSeconds: 900,
    })

    await store.getState().submitOtpCode(' 123456 ')
    expect(statuses).toEqual([
      'AUTHENTICATING_EMAIL',
      'AWAITING_EMAIL_AUTH',
      'AWAITING_OTP_AUTH',
      'CONNECTED',
    ])
    expect(calls.find((call) => call.method === 'otp')?.input).toMatchObject({
      orgId: 'org-1',
      otpId: 'otp-1',
      otpCode: '123456',
    })
    expect(stamper.injected).toMatchObject([{ bundle: 'good-bundle', organizationId: 'org-1' }])
    expect(store.getState()).toMatchObject({
      status: 'CONNECTED',
      isNewUser: true,
      otpId: null,
      user: { address: whoami.address },
    })
    // Only address, solanaAddress, orgId, userId and email persist (docs/signer.md#persisted-session).
    const persisted = JSON.parse(storage.entries.get(signerStorageKey) ?? '{}')
    expect(persisted.version).toBe(signerStorageVersion)
    expect(Object.keys(persisted.state.user).sort()).toEqual([
      'address',
      'email',
      'orgId',
      'solanaAddress',
      'userId',
    ])
  })

  it('asks for a magic link with the same call, mode magicLink', async () => {
    const { store, calls } = setUp()
    await store.getState().authenticateWithEmail({ email: 'ada@example.com', mode: 'magicLink' })
    expect(calls.map((call) => call.method)).toEqual(['signup'])
    expect(calls[0]?.input).toMatchObject({ emailMode: 'magicLink' })
    expect(store.getState().status).toBe('AWAITING_EMAIL_AUTH')
  })

  it('sends an SMS code: AWAITING_SMS_AUTH', async () => {
    const { store, calls, statuses } = setUp()
    await store.getState().authenticateWithSms({ phone: '+15555550100' })
    expect(calls.map((call) => call.method)).toEqual(['signup'])
    expect(calls[0]?.input).toEqual({
      phone: '+15555550100',
      targetPublicKey: `04${'aa'.repeat(64)}`,
      expirationSeconds: 900,
    })
    await store.getState().submitOtpCode('123456')
    expect(statuses).toEqual(['AWAITING_SMS_AUTH', 'AWAITING_OTP_AUTH', 'CONNECTED'])
  })

  it('signs a contact that already has an account in through the same signup call, and takes isNewUser from the code', async () => {
    const { store, calls } = setUp({
      client: {
        otp: (async () => ({ credentialBundle: 'good-bundle', isNewUser: false })) as SignerClient['otp'],
      },
    })
    await store.getState().authenticateWithEmail({ email: 'ada@example.com' })
    expect(calls.map((call) => call.method)).toEqual(['signup'])
    await store.getState().submitOtpCode('123456')
    // The signup answer's reservation is not the user: the user is whoami's.
    expect(store.getState()).toMatchObject({
      status: 'CONNECTED',
      isNewUser: false,
      user: { userId: 'user-1' },
    })
  })

  it('stores a refused send as {name, message} and DISCONNECTED', async () => {
    const refusal = new AppError('RATE_LIMITED', {
      userMessage: 'Too many codes were sent to this address. Wait 3 minutes, then try again.',
    })
    const { store } = setUp({ client: { signup: () => Promise.reject(refusal) } })
    await expect(store.getState().authenticateWithEmail({ email: 'ada@example.com' })).rejects.toBe(refusal)
    expect(store.getState()).toMatchObject({
      status: 'DISCONNECTED',
      error: {
        name: 'AppError',
        message: 'Too many codes were sent to this address. Wait 3 minutes, then try again.',
      },
    })
  })

  it('keeps the pending code after a wrong one, so the right one still signs in', async () => {
    const { store } = setUp()
    await store.getState().authenticateWithEmail({ email: 'ada@example.com' })
    await expect(store.getState().submitOtpCode('000000')).rejects.toThrow()
    expect(store.getState()).toMatchObject({
      status: 'DISCONNECTED',
      error: { message: 'That code is not right. You have 2 tries left.' },
    })
    await store.getState().submitOtpCode('123456')
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', error: null })
  })

  it('needs a pending code first', async () => {
    const { store } = setUp()
    await expect(store.getState().submitOtpCode('123456')).rejects.toThrow('orgId not found in session')
    expect(store.getState()).toMatchObject({
      status: 'DISCONNECTED',
      error: { message: 'orgId not found in session' },
    })
  })

  it('fails with the documented text when the answer has no bundle', async () => {
    const { store } = setUp({ client: { otp: async () => ({}) as never } })
    await store.getState().authenticateWithEmail({ email: 'ada@example.com' })
    await expect(store.getState().submitOtpCode('123456')).rejects.toThrow(
      'Failed to submit OTP code. Server did not return required fields.',
    )
  })

  it('moves to AWAITING_MFA_AUTH when a second factor is required', async () => {
    const { store } = setUp({
      client: {
        otp: async () => ({
          status: 'MFA_REQUIRED',
          encryptedPayload: 'payload',
          multiFactors: [{ multiFactorId: 'mfa-1', multiFactorType: 'totp' }],
        }),
      },
    })
    await store.getState().authenticateWithEmail({ email: 'ada@example.com' })
    await store.getState().submitOtpCode('123456')
    expect(store.getState()).toMatchObject({
      status: 'AWAITING_MFA_AUTH',
      mfaStatus: { mfaRequired: true, mfaFactorId: 'mfa-1' },
    })
  })

  it('fails with the documented text when the bundle cannot be injected', async () => {
    const { store } = setUp()
    await expect(
      store.getState().completeMagicLink({ bundle: 'bad-bundle', orgId: 'org-1' }),
    ).rejects.toThrow('Failed to inject credential bundle')
    expect(store.getState().status).toBe('DISCONNECTED')
  })

  it('signs in with a magic link: AUTHENTICATING_EMAIL → CONNECTED', async () => {
    const { store, statuses } = setUp()
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    expect(statuses).toEqual(['AUTHENTICATING_EMAIL', 'CONNECTED'])
  })

  it("opens a magic link at the signer with this browser's key, which then mints the session; isNewUser is the signer's", async () => {
    const { store, stamper, calls } = setUp({
      client: {
        openMagicLink: async () => ({ credentialBundle: 'minted-bundle', isNewUser: true, orgId: 'org-1' }),
      },
    })
    await store.getState().completeMagicLink({ bundle: 'link-token', orgId: 'org-1' })
    expect(stamper.injected).toMatchObject([{ bundle: 'minted-bundle', organizationId: 'org-1' }])
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', isNewUser: true })
    expect(calls.map((call) => call.method)).toContain('whoami')
  })

  it('keeps the signer refusal of a magic link opened elsewhere as the error', async () => {
    const elsewhere = new AppError('UNAUTHORIZED', {
      userMessage:
        'This sign-in link could not be opened here. Open it in the browser where you asked for it, or request a new one.',
    })
    const { store } = setUp({ client: { openMagicLink: () => Promise.reject(elsewhere) } })
    await expect(store.getState().completeMagicLink({ bundle: 'link-token', orgId: 'org-1' })).rejects.toBe(
      elsewhere,
    )
    expect(store.getState()).toMatchObject({ status: 'DISCONNECTED', error: { message: elsewhere.message } })
  })

  it('turns a non-Error failure into Unknown error', async () => {
    const { store } = setUp({ client: { signup: () => Promise.reject('weird') } })
    await expect(store.getState().authenticateWithEmail({ email: 'ada@example.com' })).rejects.toBe('weird')
    expect(store.getState().error).toEqual({ name: 'Error', message: 'Unknown error' })
  })
})

describe('signer store: custom JWT', () => {
  it("goes AUTHENTICATING_JWT → CONNECTED: sends the token, provider and this browser's key, injects the bundle the signer answers", async () => {
    const { store, stamper, calls, statuses } = setUp({
      client: {
        authJwt: async () => ({ credentialBundle: 'jwt-bundle', isNewUser: true, orgId: 'org-jwt' }),
      },
    })
    await store.getState().authenticateWithJwt({ jwt: 'header.payload.signature', authProvider: 'acme' })
    expect(statuses).toEqual(['AUTHENTICATING_JWT', 'CONNECTED'])
    expect(stamper.injected).toMatchObject([{ bundle: 'jwt-bundle', organizationId: 'org-jwt' }])
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', isNewUser: true, error: null })
    expect(store.getState().user?.address).toBe(whoami.address)
    expect(calls.map((call) => call.method)).toEqual(['whoami'])
  })

  it('asks auth-jwt with the JWT auth request {jwt, targetPublicKey, authProvider, expirationSeconds}', async () => {
    const requests: unknown[] = []
    const { store } = setUp({
      client: {
        authJwt: async (input) => {
          requests.push(input)
          return { credentialBundle: 'jwt-bundle', isNewUser: false, orgId: 'org-1' }
        },
      },
    })
    await store.getState().authenticateWithJwt({ jwt: 'a.b.c', authProvider: 'acme' })
    expect(requests).toEqual([
      { jwt: 'a.b.c', authProvider: 'acme', targetPublicKey: `04${'aa'.repeat(64)}`, expirationSeconds: 900 },
    ])
    expect(store.getState().isNewUser).toBe(false)
  })

  it('stores a refused token as the error and stays DISCONNECTED without a user', async () => {
    const refused = new AppError('UNAUTHORIZED', {
      userMessage: 'Invalid token specified: invalid json for part #1 (Unexpected token)',
    })
    const { store, stamper, calls, statuses } = setUp({ client: { authJwt: () => Promise.reject(refused) } })
    await expect(store.getState().authenticateWithJwt({ jwt: 'garbage', authProvider: 'acme' })).rejects.toBe(
      refused,
    )
    expect(statuses).toEqual(['AUTHENTICATING_JWT', 'DISCONNECTED'])
    expect(store.getState()).toMatchObject({
      status: 'DISCONNECTED',
      user: null,
      error: { message: 'Invalid token specified: invalid json for part #1 (Unexpected token)' },
    })
    expect(stamper.injected).toEqual([])
    expect(calls).toEqual([])
  })
})

describe('signer store: session lifetime', () => {
  it('disconnects and forgets the stored session at expiry', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 })
    const { store, storage } = setUp()
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    expect(store.getState().sessionExpiresAtMs).toBe(1_700_000_000_000 + 900_000)
    vi.advanceTimersByTime(899_999)
    expect(store.getState().status).toBe('CONNECTED')
    vi.advanceTimersByTime(1)
    expect(store.getState()).toMatchObject({ status: 'DISCONNECTED', user: null })
    expect(storage.entries.has(signerStorageKey)).toBe(false)
  })

  it('follows sign-in and logout in another tab', () => {
    const storage = createMemoryStorage()
    const eventTarget = new EventTarget()
    const { store } = setUp({ storage, eventTarget })
    storage.setItem(signerStorageKey, storedSession(Date.now() + 60_000))
    eventTarget.dispatchEvent(Object.assign(new Event('storage'), { key: signerStorageKey }))
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', user: { orgId: 'org-1' } })
    storage.removeItem(signerStorageKey)
    eventTarget.dispatchEvent(Object.assign(new Event('storage'), { key: signerStorageKey }))
    expect(store.getState()).toMatchObject({ status: 'DISCONNECTED', user: null })
  })

  it('logs out: revokes the session key at the signer, resets the frame keys, clears the stored session', async () => {
    const { store, stamper, storage, calls } = setUp()
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    await store.getState().logout()
    expect(calls.filter((call) => call.method === 'revokeSession').map((call) => call.input)).toEqual([
      ['org-1'],
    ])
    expect(stamper.resets).toBe(1)
    expect(storage.entries.has(signerStorageKey)).toBe(false)
    expect(store.getState()).toMatchObject({ status: 'DISCONNECTED', user: null, error: null })
  })

  it('logs out locally when the signer cannot revoke the key', async () => {
    const { store, stamper, storage } = setUp({
      client: { revokeSession: () => Promise.reject(new AppError('NETWORK')) },
    })
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    await store.getState().logout()
    expect(stamper.resets).toBe(1)
    expect(storage.entries.has(signerStorageKey)).toBe(false)
    expect(store.getState()).toMatchObject({ status: 'DISCONNECTED', user: null, error: null })
  })

  it('disconnects when the signer refuses the session key', async () => {
    const expired = new AppError('UNAUTHORIZED', { userMessage: 'The session key has expired.' })
    const { store } = setUp({ client: { signPayload: () => Promise.reject(expired) } })
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    await expect(store.getState().toViemAccount().signMessage({ message: 'hi' })).rejects.toBe(expired)
    expect(store.getState().status).toBe('DISCONNECTED')
  })
})

describe('signer store: signing', () => {
  it('polls a pending signing activity and returns its signature', async () => {
    const { store, calls } = setUp()
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    const signature = await store.getState().signSolanaMessage(new Uint8Array([1, 2, 3]))
    expect(signature).toHaveLength(64)
    const sign = calls.find((call) => call.method === 'signPayload')?.input as unknown[]
    expect(sign[1]).toEqual({
      signWith: whoami.solanaAddress,
      payload: '0x010203',
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    })
    expect(calls.filter((call) => call.method === 'getActivity')).toHaveLength(1)
  })

  it('needs a signed-in user', async () => {
    const { store } = setUp()
    expect(() => store.getState().toViemAccount()).toThrow('Signer not authenticated')
    await expect(store.getState().signSolanaMessage(new Uint8Array([1]))).rejects.toThrow(
      'Must be authenticated!',
    )
  })

  it('refuses an unknown export mode', async () => {
    const { store } = setUp()
    await store.getState().completeMagicLink({ bundle: 'good-bundle', orgId: 'org-1' })
    await expect(
      store.getState().exportWallet({ container: {} as HTMLElement, kind: 'MNEMONIC' as never }),
    ).rejects.toThrow('Unknown export mode: MNEMONIC')
  })
})
