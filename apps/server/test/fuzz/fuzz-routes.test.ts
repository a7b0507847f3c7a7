// Every route of the app server (the signer it mounts included), listed as Fastify declares them,
// gets nasty input in each place input goes: path parameters, query strings, JSON fields (the inner
// body a session key stamps too), whole bodies and content types, huge headers. Signed out (with a
// CSRF cookie) and signed in (an app session and a signer session key). No answer may be a 5xx:
// bad input is the caller's fault, a 4xx (docs/api.md#unstorable-input).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import type { InjectOptions, RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptCredentialBundle } from '../../../signer/src/crypto/bundles/decrypt-credential-bundle.ts'
import { createStamp } from '../../../signer/src/crypto/stamps/create-stamp.ts'
import {
  buildStampedBody,
  createFrameKey,
  createRecordingDelivery,
  readCode,
  stampRequest,
} from '../../../signer/test/build-signer-test-app.ts'
import {
  buildLinkBody,
  signInTestUser,
  writeTestDeployment,
} from '../../src/routes/links/link-test-fixtures.ts'
import { buildTestApp, type TestApp } from '../build-test-app.ts'
import {
  createRandom,
  mutateBody,
  nastyQueryStrings,
  nastyRawBodies,
  nastyUrlValues,
} from './nasty-inputs.ts'
import { type FuzzScene, getPlausibleParam, getSampleBody, getSampleParameters } from './route-samples.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const random = createRandom(29)
const typeByPath = new Map<string, string>(
  Object.values(signerActivities).map((entry) => [entry.path, entry.type]),
)

type Route = { method: string; url: string }
/** One request of the suite; a stamped one is built (and dated) when it is sent. */
type Case = {
  route: Route
  url: string
  body?: () => InjectOptions['payload']
  contentType?: string
  headers?: Record<string, string>
}

let testApp: TestApp
let scene: FuzzScene
let sessionToken: string
let sessionKey: Uint8Array
const routes: Route[] = []

function buildUrl(route: Route, override?: { name: string; value: string }): string {
  return route.url.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const key = name ?? whole
    return override?.name === key ? override.value : encodeURIComponent(getPlausibleParam(key, scene))
  })
}

/** The signer path of a route (`whoami`, `public/v1/query/whoami`), or undefined off the signer. */
function getSignerPath(route: Route): string | undefined {
  return route.url.startsWith('/signer/v1/') ? route.url.slice('/signer/v1/'.length) : undefined
}

/** A stamped call's body, dated now: `{stampedRequest}`, or Turnkey's raw body with its X-Stamp. */
function buildStamped(path: string, parameters: unknown): { payload: string; stamp?: string } {
  if (path.startsWith('public/v1/query/')) {
    const body = JSON.stringify({ organizationId: scene.orgId, ...(parameters as Record<string, unknown>) })
    return { payload: body, stamp: createStamp({ privateKey: sessionKey, body }) }
  }
  const type = path.startsWith('public/v1/submit/')
    ? `ACTIVITY_TYPE_${path.slice('public/v1/submit/'.length).toUpperCase()}`
    : (typeByPath.get(path) ?? 'ACTIVITY_TYPE_UNKNOWN')
  const inner = buildStampedBody({
    type,
    organizationId: scene.orgId,
    parameters: {},
    timestampMs: Date.now(),
  })
  const body = inner.replace('"parameters":{}', `"parameters":${JSON.stringify(parameters)}`)
  if (path.startsWith('public/v1/'))
    return { payload: body, stamp: createStamp({ privateKey: sessionKey, body }) }
  return { payload: JSON.stringify(stampRequest(path, sessionKey, body)) }
}

/** The route's well-formed request: plausible parameters and its sample (or stamped sample) body. */
function getPlainCase(route: Route): Case {
  const url = buildUrl(route)
  if (route.method === 'GET' || route.method === 'HEAD') return { route, url }
  const signerPath = getSignerPath(route)
  const sample = getSampleBody(`${route.method} ${route.url}`, scene)
  if (sample !== undefined || signerPath === undefined) {
    return { route, url, body: () => JSON.stringify(sample ?? {}), contentType: 'application/json' }
  }
  return {
    route,
    url,
    contentType: 'application/json',
    ...stampedCase(signerPath, getSampleParameters(signerPath, scene)),
  }
}

function listCases(route: Route): Case[] {
  const cases: Case[] = []
  const plainUrl = buildUrl(route)
  for (const name of [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*')) {
    for (const value of nastyUrlValues) cases.push({ route, url: buildUrl(route, { name, value }) })
  }
  for (const value of nastyUrlValues) cases.push({ route, url: `${plainUrl}?q=${value}&code=${value}` })
  for (const query of nastyQueryStrings) cases.push({ route, url: `${plainUrl}?${query}` })
  cases.push({ route, url: plainUrl, headers: { 'x-fuzz': 'h'.repeat(40_000) } })
  cases.push({ route, url: plainUrl, headers: { 'x-fuzz': 'a\u0000b', 'x-request-id': 'a\u0000b' } })
  if (route.method === 'GET' || route.method === 'HEAD') return cases

  for (const raw of nastyRawBodies) {
    cases.push({
      route,
      url: plainUrl,
      body: () => raw.payload,
      ...(raw.contentType ? { contentType: raw.contentType } : {}),
    })
  }
  const signerPath = getSignerPath(route)
  const sample = getSampleBody(`${route.method} ${route.url}`, scene)
  if (sample !== undefined || signerPath === undefined) {
    for (const body of mutateBody(sample ?? { id: 'x' }, random, 3)) {
      cases.push({ route, url: plainUrl, body: () => JSON.stringify(body), contentType: 'application/json' })
    }
    return cases
  }
  // A stamped signer route: spoil the parameters the session key signs, then the outer body.
  for (const parameters of mutateBody(getSampleParameters(signerPath, scene), random, 1)) {
    cases.push({
      route,
      url: plainUrl,
      contentType: 'application/json',
      ...stampedCase(signerPath, parameters),
    })
  }
  if (!signerPath.startsWith('public/v1/')) {
    const outer = JSON.parse(
      buildStamped(signerPath, getSampleParameters(signerPath, scene)).payload,
    ) as unknown
    for (const body of mutateBody(outer, random, 0)) {
      cases.push({ route, url: plainUrl, body: () => JSON.stringify(body), contentType: 'application/json' })
    }
  }
  return cases
}

function stampedCase(path: string, parameters: unknown): Pick<Case, 'body' | 'headers'> {
  let stamp: string | undefined
  return {
    body: () => {
      const built = buildStamped(path, parameters)
      stamp = built.stamp
      return built.payload
    },
    get headers(): Record<string, string> {
      return stamp === undefined ? {} : { 'x-stamp': stamp }
    },
  }
}

let requestCount = 0
async function send(testCase: Case, isSignedIn: boolean) {
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
  sessionKey = session.privateKey
  scene = {
    linkId: id,
    linkSlug,
    orgId: auth.orgId,
    address: '',
    walletId: '',
    targetPublicKey: frame.targetPublicKey,
  }
  const me = await post('whoami', JSON.parse(buildStamped('whoami', {}).payload) as Record<string, unknown>)
  const { address, walletId } = me.json<{ address: string; walletId: string }>()
  scene = { ...scene, address, walletId }
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
      for (const testCase of listCases(route)) {
        // The app session only means something under /api; the signer's "signed in" is the
        // session key that stamps its cases.
        for (const isSignedIn of route.url.startsWith('/api/') ? [false, true] : [false]) {
          const response = await send(testCase, isSignedIn)
          if (response.statusCode < 500) continue
          // The test runs no chain node, bundler or Solana validator: a route whose well-formed
          // request gets the same 502 or 503 is down for everyone, not failing on this input.
          if (!baselines.has(isSignedIn)) baselines.set(isSignedIn, send(getPlainCase(route), isSignedIn))
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
