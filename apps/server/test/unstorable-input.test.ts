// Input no route should ever see (docs/api.md#unstorable-input): a NUL byte, broken UTF-8 and
// over-long or over-deep input are the caller's 4xx on every server, never a 500.
import { createLogger } from '@quicklinks/runtime/create-logger'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../../signer/src/build-signer-app.ts'
import { buildFramesServer } from '../../signer/src/frames-server/build-frames-server.ts'
import { buildTestApp, createTestConfig, createTestDatabase, type TestApp } from './build-test-app.ts'
import { buildLinkBody, signInTestUser, writeTestDeployment } from './link-test-fixtures.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const withCsrf = { cookies: { csrf_token: csrf }, headers: { 'x-csrf-token': csrf } }

// GET /api/test/echo-header: stores a header's base64 text in the database as it is, the way a
// decoded value could slip past the guard (the error handler's net behind it).
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/test/echo-header', async (request) => {
    const text = Buffer.from(String(request.headers['x-text'] ?? ''), 'base64').toString('utf8')
    const rows = await app.db.execute(sql`select ${text}::text as text`)
    return { data: rows }
  })
}

/** The error body every refusal carries: the error model, never Fastify's own or a 500. */
function expectRefusal(response: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(response.statusCode).toBe(status)
  expect(response.json()).toMatchObject({ error: { code, message: expect.any(String) } })
}

describe('input Postgres cannot store, on the app server', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await buildTestApp({}, { extraApiRoutes: testRoutes })
    writeTestDeployment(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers GET /api/pay/links/a%00b with 400, not 500 (issue 29)', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/pay/links/a%00b' })
    expectRefusal(response, 400, 'BAD_REQUEST')
    expect(response.json()).toMatchObject({ error: { field: 'address' } })
  })

  it('refuses a NUL, an overlong or surrogate escape and a stray % in any path or query, on every namespace', async () => {
    const urls = [
      '/api/pay/links/%C0%80',
      '/api/pay/links/%ED%A0%80',
      '/api/links?q=%00',
      '/api/users/username/a%00b/exists',
      '/api/config?x=%C0%80',
      '/signer/v1/signer-config?x=%00',
      '/health?x=%00',
      '/ready?x=%ED%B0%80',
      '/pay/a%00b',
      '/assets/a%00.js',
      '/nope?x=%',
    ]
    for (const url of urls) {
      const response = await testApp.app.inject({ method: 'GET', url, ...withCsrf })
      expect([url, response.statusCode, response.json().error?.code]).toEqual([url, 400, 'BAD_REQUEST'])
    }
  })

  it('refuses a huge query string with 414 and huge headers with 431', async () => {
    const longUrl = await testApp.app.inject({ method: 'GET', url: `/api/config?q=${'a'.repeat(20_000)}` })
    expectRefusal(longUrl, 414, 'URI_TOO_LONG')
    const longParam = await testApp.app.inject({ method: 'GET', url: `/api/pay/links/${'a'.repeat(200)}` })
    expectRefusal(longParam, 414, 'URI_TOO_LONG')
    const bigHeaders = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-big': 'h'.repeat(40_000) },
    })
    expectRefusal(bigHeaders, 431, 'HEADERS_TOO_LARGE')
  })

  it('refuses JSON bodies holding \\u0000 or a lone surrogate in a value or a key, or nested 5000 deep, with a 422 naming the field', async () => {
    const owner = await signInTestUser(testApp)
    const post = (payload: string) =>
      owner.request({
        method: 'POST',
        url: '/api/links',
        headers: { 'content-type': 'application/json' },
        payload,
      })
    const body = buildLinkBody()
    const nul = await post(JSON.stringify({ ...body, receiver_address: 'a\u0000b' }))
    expectRefusal(nul, 422, 'VALIDATION_FAILED')
    expect(nul.json().error).toMatchObject({
      field: 'receiver_address',
      message: 'receiver_address: contains a NUL character (U+0000), which is not accepted',
    })
    const surrogate = await post(JSON.stringify(body).replace('"Coffee Fund"', '"Coffee \\ud800"'))
    expect(surrogate.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'alias' })
    expectRefusal(await post(JSON.stringify({ ...body, 'x\u0000': 1 })), 422, 'VALIDATION_FAILED')
    expectRefusal(await post(`${'['.repeat(5_000)}${']'.repeat(5_000)}`), 422, 'VALIDATION_FAILED')
    expectRefusal(await post(`{"a":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`), 422, 'VALIDATION_FAILED')
    // Nothing was stored.
    expect((await owner.request({ method: 'GET', url: '/api/links' })).json().data).toEqual([])
  })

  it('maps a NUL the database itself refuses to 400 (the net behind the guard)', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/test/echo-header',
      headers: { 'x-text': Buffer.from('a\u0000b').toString('base64') },
    })
    expectRefusal(response, 400, 'BAD_REQUEST')
    const fine = await testApp.app.inject({
      method: 'GET',
      url: '/api/test/echo-header',
      headers: { 'x-text': Buffer.from('ab').toString('base64') },
    })
    expect(fine.statusCode).toBe(200)
  })
})

describe('input Postgres cannot store, on the standalone signer and the frames server', () => {
  let signer: FastifyInstance
  let frames: FastifyInstance
  const closers: (() => Promise<unknown>)[] = []
  beforeAll(async () => {
    const config = createTestConfig()
    const database = await createTestDatabase()
    signer = await buildSignerApp(config, { database, logger: createLogger('silent') })
    frames = await buildFramesServer(
      { publicOrigin: config.publicOrigin, trustProxy: false },
      { getExportSignerPublicKey: async () => undefined },
    )
    closers.push(
      () => signer.close(),
      () => database.close(),
      () => frames.close(),
    )
  })
  afterAll(async () => {
    for (const close of closers) await close()
  })

  it('refuses NUL and broken UTF-8 in the address and the body with a 4xx', async () => {
    for (const url of ['/signer/v1/lookup?x=%00', '/health?x=%C0%80', '/ready?x=%00']) {
      const response = await signer.inject({
        method: 'POST',
        url,
        ...withCsrf,
        payload: { email: 'a@example.com' },
      })
      expect([url, response.statusCode]).toEqual([url, 400])
    }
    const body = await signer.inject({
      method: 'POST',
      url: '/signer/v1/lookup',
      ...withCsrf,
      payload: { email: 'a\u0000@example.com' },
    })
    expectRefusal(body, 422, 'VALIDATION_FAILED')
    for (const url of ['/auth-frame?x=%00', '/assets/a%C0%80.js', '/export-frame%ED%A0%80']) {
      const response = await frames.inject({ method: 'GET', url })
      expect([url, response.statusCode]).toEqual([url, 400])
    }
  })
})
