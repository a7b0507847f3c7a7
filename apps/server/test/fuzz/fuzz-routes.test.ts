// Every route of the app server (the signer it mounts included), listed as Fastify declares them,
// gets nasty input in each place input goes: path parameters, query strings, JSON fields (the inner
// body a session key stamps too), whole bodies and content types, huge headers. Signed out (with a
// CSRF cookie) and signed in (an app session and a signer session key). No answer may be a 5xx:
// bad input is the caller's fault, a 4xx (docs/api.md#unstorable-input).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { InjectOptions, RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptCredentialBundle } from '../../../signer/src/crypto/bundles/decrypt-credential-bundle.ts'
import {
  buildStampedBody,
  createFrameKey,
  createRecordingDelivery,
  readCode,
  stampRequest,
} from '../../../signer/test/build-signer-test-app.ts'
import { buildTestApp, type TestApp } from '../build-test-app.ts'
import { buildLinkBody, signInTestUser, writeTestDeployment } from '../link-test-fixtures.ts'
import { createFuzzCases, type FuzzCase, type FuzzRoute } from './create-fuzz-cases.ts'
import { createRandom } from './nasty-inputs.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

let testApp: TestApp
let sessionToken: string
let cases: ReturnType<typeof createFuzzCases>
const routes: FuzzRoute[] = []

let requestCount = 0
async function send(testCase: FuzzCase, isSignedIn: boolean) {
  requestCount += 1
  const payload = testCase.body?.()
  return testApp.app.inject({
    method: testCase.route.method as InjectOptions['method'],
    url: testCase.url,
    // Each request from its own address: the per-route rate limits must not hide a route.
    remoteAddress: `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`,
    cookies: isSignedIn ? { csrf_token: csrf, ql_session: sessionToken } : { csrf_token: csrf },
    headers: {
      'x-csrf-token': csrf,
      ...(testCase.contentType ? { 'content-type': testCase.contentType } : {}),
      ...testCase.headers,
    },
    ...(payload === undefined ? {} : { payload }),
  })
}

beforeAll(async () => {
  const webDistDir = mkdtempSync(join(tmpdir(), 'ql-fuzz-web-'))
  mkdirSync(join(webDistDir, 'assets'))
  writeFileSync(join(webDistDir, 'index.html'), '<!doctype html><title>Quick Links</title>')
  writeFileSync(join(webDistDir, 'assets', 'app.js'), 'console.log(1)')
  const delivery = createRecordingDelivery()
  testApp = await buildTestApp(
    { devMode: true, rateLimitMax: 1_000_000, webDistDir, sms: { provider: 'dev' } },
    { delivery, onRoute: (route: RouteOptions) => collectRoute(route) },
  )
  writeTestDeployment(testApp)
  const user = await signInTestUser(testApp)
  sessionToken = user.sessionToken
  const link = await user.request({
    method: 'POST',
    url: '/api/links',
    payload: buildLinkBody({ alias: 'Fuzz Link' }),
  })
  if (link.statusCode !== 201 && link.statusCode !== 200) throw new Error(`link: ${link.body}`)
  const { id, alias_slug: linkSlug } = link.json<{ data: { id: string; alias_slug: string } }>().data

  // A signer session: an e-mail code sign-in through the mounted signer, as the SDK makes it.
  const frame = createFrameKey()
  const post = (path: string, payload: Record<string, unknown>) =>
    testApp.app.inject({
      method: 'POST',
      url: `/signer/v1/${path}`,
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
      payload,
    })
  const auth = (
    await post('auth', { email: 'fuzz.owner@example.com', targetPublicKey: frame.targetPublicKey })
  ).json<{ orgId: string; otpId: string }>()
  const otp = await post('otp', {
    ...auth,
    otpCode: readCode(delivery.emails.at(-1)?.text ?? ''),
    targetPublicKey: frame.targetPublicKey,
  })
  const session = await decryptCredentialBundle({
    bundle: otp.json<{ credentialBundle: string }>().credentialBundle,
    embeddedPrivateKey: frame.privateKey,
  })
  const whoamiBody = buildStampedBody({
    type: 'ACTIVITY_TYPE_WHOAMI',
    organizationId: auth.orgId,
    parameters: {},
    timestampMs: Date.now(),
  })
  const me = await post('whoami', stampRequest('whoami', session.privateKey, whoamiBody))
  const { address, walletId } = me.json<{ address: string; walletId: string }>()
  cases = createFuzzCases({
    scene: {
      linkId: id,
      linkSlug,
      orgId: auth.orgId,
      address,
      walletId,
      targetPublicKey: frame.targetPublicKey,
    },
    sessionKey: session.privateKey,
    // One seed: the same requests on every run.
    random: createRandom(29),
  })
}, 120_000)

afterAll(async () => {
  await testApp?.close()
})

function collectRoute(route: RouteOptions): void {
  for (const method of [route.method].flat()) {
    if (method !== 'HEAD') routes.push({ method, url: route.url })
  }
}

describe('the fuzz suite: nasty input on every route', () => {
  it('lists every route of the app server and of the signer it mounts', () => {
    const urls = new Set(routes.map((route) => route.url))
    for (const url of [
      '/api/pay/links/:slug',
      '/api/links/:id',
      '/signer/v1/whoami',
      '/signer/v1/public/v1/query/whoami',
      '/health',
      '/ready',
      '/api/dev/mail',
    ]) {
      expect(urls, url).toContain(url)
    }
  })

  it('answers no nasty request with a 5xx, signed out or signed in', async () => {
    // The session-ending call goes last, so every other stamped case has a live key.
    const ordered = [...routes].sort(
      (a, b) => Number(a.url.endsWith('revoke-session')) - Number(b.url.endsWith('revoke-session')),
    )
    const failures: string[] = []
    for (const route of ordered) {
      const baselines = new Map<boolean, Promise<{ statusCode: number; body: string }>>()
      for (const testCase of cases.listCases(route)) {
        // The app session only means something under /api; the signer's "signed in" is the
        // session key that stamps its cases.
        for (const isSignedIn of route.url.startsWith('/api/') ? [false, true] : [false]) {
          const response = await send(testCase, isSignedIn)
          if (response.statusCode < 500) continue
          // The test runs no chain node, bundler or Solana validator: a route whose well-formed
          // request gets the same 502 or 503 is down for everyone, not failing on this input.
          if (!baselines.has(isSignedIn))
            baselines.set(isSignedIn, send(cases.getPlainCase(route), isSignedIn))
          const baseline = await baselines.get(isSignedIn)
          const isDownForEveryone =
            [502, 503].includes(response.statusCode) &&
            baseline?.statusCode === response.statusCode &&
            readErrorCode(baseline.body) === readErrorCode(response.body)
          if (isDownForEveryone) continue
          // The server's own log of the failure, for whoever reads a red run.
          const logged = testApp.logs.find(
            (line) => line.reqId === response.headers['x-request-id'] && line.level === 50,
          ) as { err?: { message?: string } } | undefined
          failures.push(
            `${response.statusCode} ${route.method} ${testCase.url.slice(0, 120)} ${isSignedIn ? 'signed in' : 'signed out'}: ${response.body.slice(0, 200)} ${logged?.err?.message?.slice(0, 300) ?? ''}`,
          )
        }
      }
    }
    expect(failures).toEqual([])
    expect(requestCount).toBeGreaterThan(3_000)
  }, 120_000)
})

/** The error code of an answer (`status` for /ready's own shape), or undefined. */
function readErrorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string }; status?: string }
    return parsed.error?.code ?? parsed.status
  } catch {
    return undefined
  }
}
