import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createKeyStamper } from './create-key-stamper.ts'
import { sdkVersion, sdkVersionHeader } from './sdk-version.ts'
import { createSignerClient } from './signer-client.ts'
import { getSignerErrorCode } from './wallet-error.ts'

type Sent = { url: string; headers: Record<string, string>; body: unknown }

function createFakeFetch(answer: (sent: Sent) => Response) {
  const sent: Sent[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: Sent = {
      url: String(input),
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body)),
    }
    sent.push(request)
    return answer(request)
  }
  return { fetch: fetch as typeof globalThis.fetch, sent }
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  })

/** A well-formed signer-config answer (signerRoutes.signerConfig.answer). */
const signerConfigAnswer = {
  framesOrigin: 'x',
  authFrameUrl: 'x/auth-frame',
  exportFrameUrl: 'x/export-frame',
  exportSignerPublicKey: '04',
  sessionExpirationSeconds: 900,
  authMethods: ['email'],
  authProviders: [],
  oauthCallbackUrl: 'x/signer/v1/oauth-callback',
}

/** A well-formed whoami answer (signerActivities.whoami.answer). */
const whoamiAnswer = {
  orgId: 'org-1',
  userId: 'user-1',
  address: '0x0000000000000000000000000000000000000001',
  solanaAddress: 'So1ana',
  email: 'ada@example.com',
  phone: null,
  walletId: 'wallet-1',
}

/** A stand-in stamper that records the bodies it is asked to stamp. */
function createRecordingStamper(bodies: string[]) {
  return {
    ...createKeyStamper(),
    stamp: async (body: string) => {
      bodies.push(body)
      return { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'v' }
    },
  }
}

describe('createSignerClient', () => {
  it('POSTs JSON to {baseUrl}/signer/v1/{path} with the caller’s headers', async () => {
    const { fetch, sent } = createFakeFetch(() => json({ orgId: 'org-1' }))
    const client = createSignerClient({
      baseUrl: 'https://pay.example/',
      fetch,
      getHeaders: async () => ({ 'X-CSRF-Token': 't' }),
    })
    expect(await client.lookup({ email: 'ada@example.com' })).toEqual({ orgId: 'org-1' })
    expect(sent[0]).toMatchObject({
      url: 'https://pay.example/signer/v1/lookup',
      headers: { 'X-CSRF-Token': 't', 'content-type': 'application/json' },
      body: { email: 'ada@example.com' },
    })
  })

  it("signs in with a JWT at auth-jwt, and keeps a refusal's reason", async () => {
    const request = { jwt: 'a.b.c', targetPublicKey: `04${'aa'.repeat(64)}`, authProvider: 'acme' }
    const { fetch, sent } = createFakeFetch(({ body }) =>
      (body as { jwt: string }).jwt === 'a.b.c'
        ? json({ credentialBundle: 'bundle', isNewUser: true, orgId: 'org-1' })
        : json(
            {
              error: {
                code: 'UNAUTHORIZED',
                message: 'The token has expired. Get a new one from your sign-in provider.',
                details: { reason: 'JWT_EXPIRED' },
              },
            },
            { status: 401, statusText: 'Unauthorized' },
          ),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    expect(await client.authJwt(request)).toEqual({
      credentialBundle: 'bundle',
      isNewUser: true,
      orgId: 'org-1',
    })
    expect(sent[0]).toMatchObject({ url: 'https://pay.example/signer/v1/auth-jwt', body: request })
    const error = await client.authJwt({ ...request, jwt: 'old' }).catch((caught) => caught)
    expect(error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'The token has expired. Get a new one from your sign-in provider.',
      details: { reason: 'JWT_EXPIRED' },
    })
  })

  it('needs a base URL', () => {
    expect(() => createSignerClient({ baseUrl: '' })).toThrow('Missing base URL. Please verify env vars.')
  })

  it('turns an error body into an AppError with its message and the signer’s code', async () => {
    const { fetch } = createFakeFetch(() =>
      json(
        { error: { code: 'OTP_INVALID', message: 'That code is not right. You have 2 tries left.' } },
        { status: 401, statusText: 'Unauthorized' },
      ),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    const error = await client
      .otp({ orgId: 'o', otpId: 'i', otpCode: '1', targetPublicKey: '04' })
      .catch((caught) => caught)
    expect(error).toMatchObject({ message: 'That code is not right. You have 2 tries left.' })
    expect(getSignerErrorCode(error)).toBe('OTP_INVALID')
  })

  it('keeps a code the shared table does not know', async () => {
    const { fetch } = createFakeFetch(() =>
      json({ error: { code: 'STAMP_REPLAYED', message: 'This request was already used.' } }, { status: 401 }),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    const error = await client.lookup({ email: 'a@b.c' }).catch((caught) => caught)
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: 'This request was already used.' })
    expect(getSignerErrorCode(error)).toBe('STAMP_REPLAYED')
  })

  it('throws a plain-text error body as its text, and says {status} {statusText} for an HTML page', async () => {
    const text = createFakeFetch(
      () =>
        new Response('Signer is restarting, try again', { status: 503, statusText: 'Service Unavailable' }),
    )
    const textClient = createSignerClient({ baseUrl: 'https://pay.example', fetch: text.fetch })
    await expect(textClient.lookup({ email: 'a@b.c' })).rejects.toThrow('Signer is restarting, try again')
    const { fetch } = createFakeFetch(
      () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    await expect(client.lookup({ email: 'a@b.c' })).rejects.toThrow('502 Bad Gateway')
  })

  it('sends the SDK version, the one in package.json, with every call', async () => {
    const { fetch, sent } = createFakeFetch(() => json({ orgId: 'org-1' }))
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    await client.lookup({ email: 'a@b.c' })
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(sent[0]?.headers[sdkVersionHeader]).toBe(version)
    expect(sdkVersion).toBe(version)
  })

  it('stamps server time learned from the Date header, fetching signer-config first if needed', async () => {
    // The device clock is 10 minutes behind the server.
    const serverNow = Date.parse('2030-01-01T12:00:00Z')
    const localNow = serverNow - 600_000
    const { fetch, sent } = createFakeFetch((request) =>
      json(request.url.endsWith('signer-config') ? signerConfigAnswer : whoamiAnswer, {
        headers: { date: new Date(serverNow).toUTCString() },
      }),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch, now: () => localNow })
    const stamper = createKeyStamper()
    // A stamper without a session refuses; stamp with a stand-in that records the body instead.
    const bodies: string[] = []
    const recording = {
      ...stamper,
      stamp: async (body: string) => {
        bodies.push(body)
        return { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'v' }
      },
    }
    await client.whoami(recording, 'org-1')
    expect(sent.map((request) => request.url.split('/').pop())).toEqual(['signer-config', 'whoami'])
    const stamped = JSON.parse(bodies[0] ?? '{}')
    expect(stamped).toMatchObject({ type: 'ACTIVITY_TYPE_WHOAMI', organizationId: 'org-1', parameters: {} })
    expect(Math.abs(Number(stamped.timestampMs) - serverNow)).toBeLessThanOrEqual(1000)
    expect(sent[1]?.body).toEqual({
      stampedRequest: {
        url: 'https://pay.example/signer/v1/whoami',
        body: bodies[0],
        stamp: { stampHeaderName: 'X-Stamp', stampHeaderValue: 'v' },
      },
    })
  })

  it('never stamps two calls with the same time, so the same call twice in one millisecond is not a replay', async () => {
    // The device clock stands still and every answer carries the same second: the learned offset
    // alone would give both calls the same timestampMs, and the signer refuses a body it has seen.
    const serverNow = Date.parse('2030-01-01T12:00:00Z')
    const { fetch } = createFakeFetch((request) =>
      json(request.url.endsWith('signer-config') ? signerConfigAnswer : { multiFactors: [] }, {
        headers: { date: new Date(serverNow).toUTCString() },
      }),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch, now: () => serverNow })
    const bodies: string[] = []
    const recording = {
      ...createKeyStamper(),
      stamp: async (body: string) => {
        bodies.push(body)
        return { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'v' }
      },
    }
    await client.listMultiFactors(recording, 'org-1')
    await client.listMultiFactors(recording, 'org-1')
    const contactStampTime = client.serverNow()
    const times = bodies.map((body) => Number(JSON.parse(body).timestampMs))
    expect(times).toHaveLength(2)
    expect(times[1]).toBeGreaterThan(times[0] ?? Number.POSITIVE_INFINITY)
    expect(contactStampTime).toBeGreaterThan(times[1] ?? Number.POSITIVE_INFINITY)
    expect(new Set(bodies).size).toBe(2)
  })

  it('parses each answer with its call’s schema: a malformed one rejects naming the call and the field', async () => {
    const { fetch } = createFakeFetch((request) =>
      json(
        request.url.endsWith('signer-config')
          ? signerConfigAnswer
          : request.url.endsWith('lookup')
            ? { orgId: 42 }
            : { ...whoamiAnswer, address: 'not hex' },
        { headers: { date: new Date().toUTCString() } },
      ),
    )
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    const lookup = client.lookup({ email: 'ada@example.com' })
    await expect(lookup).rejects.toMatchObject({
      code: 'UPSTREAM_FAILED',
      message: "The signer's answer to lookup is not what the SDK expects.",
      details: { reason: 'MALFORMED_SIGNER_ANSWER', path: 'lookup', field: 'orgId' },
    })
    await expect(client.whoami(createRecordingStamper([]), 'org-1')).rejects.toMatchObject({
      details: { reason: 'MALFORMED_SIGNER_ANSWER', path: 'whoami', field: 'address' },
    })
  })

  it('answers only the fields of the call’s schema, so an extra field of the signer never reaches the caller', async () => {
    const { fetch } = createFakeFetch(() => json({ orgId: 'org-1', secret: 'x' }))
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    expect(await client.lookup({ email: 'ada@example.com' })).toEqual({ orgId: 'org-1' })
  })

  it('relays a call built elsewhere only to a path of the signer-call table, and parses its answer with that row', async () => {
    const { fetch, sent } = createFakeFetch(() => json({ ...whoamiAnswer, walletId: undefined }))
    const client = createSignerClient({ baseUrl: 'https://pay.example', fetch })
    const stamp = { stampHeaderName: 'X-Stamp' as const, stampHeaderValue: 'v' }
    await expect(client.postStampedCall({ path: 'whoami', body: '{}', stamp })).rejects.toMatchObject({
      details: { reason: 'MALFORMED_SIGNER_ANSWER', path: 'whoami', field: 'walletId' },
    })
    await expect(client.postStampedCall({ path: 'admin/drop', body: '{}', stamp })).rejects.toMatchObject({
      message: 'admin/drop is not a signer call.',
    })
    expect(sent.map((request) => request.url)).toEqual(['https://pay.example/signer/v1/whoami'])
  })

  it('rejects with a NETWORK error when the request never completes', async () => {
    const client = createSignerClient({
      baseUrl: 'https://pay.example',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    })
    await expect(client.lookup({ email: 'a@b.c' })).rejects.toMatchObject({ code: 'NETWORK' })
  })
})
