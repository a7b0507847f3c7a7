import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/build-test-app.ts'
import { createRateLimitHook, getBodyFieldKey, getClientIpKey } from './rate-limit-plugin.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

// POST /api/test/send-code: shaped like an OTP send, 3 per IP and 2 per contact per minute.
const sendCodeRoute: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/test/send-code',
    {
      schema: { body: z.object({ contact: z.string() }) },
      preHandler: createRateLimitHook(app, [
        { name: 'send-code-ip', max: 3, timeWindow: '1 minute', getKey: getClientIpKey },
        { name: 'send-code-contact', max: 2, timeWindow: '1 minute', getKey: getBodyFieldKey('contact') },
      ]),
    },
    // POST /api/test/send-code: accepts and does nothing.
    async () => ({ data: { ok: true } }),
  )
}

function sendCode(testApp: TestApp, contact: string, ip = '203.0.113.7') {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/test/send-code',
    remoteAddress: ip,
    payload: { contact },
    cookies: { csrf_token: csrf },
    headers: { 'x-csrf-token': csrf },
  })
}

describe('rate limits', () => {
  const opened: TestApp[] = []
  afterEach(async () => {
    for (const testApp of opened.splice(0)) await testApp.close()
  })

  it('answers 429 RATE_LIMITED through the error model once the global limit is used up', async () => {
    const testApp = await buildTestApp({ rateLimitMax: 2 })
    opened.push(testApp)
    const statuses = []
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await testApp.app.inject({ method: 'GET', url: '/health', remoteAddress: '198.51.100.1' }))
          .statusCode,
      )
    }
    expect(statuses).toEqual([200, 200, 429])
    const limited = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      remoteAddress: '198.51.100.1',
    })
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Too many attempts. Wait a moment and try again.',
        details: { retryAfterSeconds: expect.any(Number) },
      },
    })
    // Another client is not affected.
    const other = await testApp.app.inject({ method: 'GET', url: '/health', remoteAddress: '198.51.100.2' })
    expect(other.statusCode).toBe(200)
  })

  it('starts a new window once the old one has passed', async () => {
    const testApp = await buildTestApp({ rateLimitMax: 1 }, { rateLimitWindowMs: 400 })
    opened.push(testApp)
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(429)
    await new Promise((done) => setTimeout(done, 500))
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
  })

  it('enforces tight per-route limits by contact and by IP', async () => {
    const testApp = await buildTestApp({}, { extraApiRoutes: sendCodeRoute })
    opened.push(testApp)
    expect((await sendCode(testApp, 'a@example.com')).statusCode).toBe(200)
    expect((await sendCode(testApp, ' A@example.com')).statusCode).toBe(200)
    const byContact = await sendCode(testApp, 'a@example.com')
    expect(byContact.statusCode).toBe(429)
    expect(byContact.json().error.code).toBe('RATE_LIMITED')
    expect(Number(byContact.headers['retry-after'])).toBeGreaterThan(0)
    // The same contact from another IP is still limited: the counter is per contact.
    expect((await sendCode(testApp, 'a@example.com', '203.0.113.8')).statusCode).toBe(429)
    // The first IP has made 3 counted attempts; a fourth, for a new contact, hits the IP limit.
    expect((await sendCode(testApp, 'b@example.com')).statusCode).toBe(429)
    expect((await sendCode(testApp, 'c@example.com', '203.0.113.9')).statusCode).toBe(200)
  })

  it('shares counters between app instances on one database (the server is stateless)', async () => {
    const database = await createTestDatabase()
    const first = await buildTestApp({}, { database, extraApiRoutes: sendCodeRoute })
    const second = await buildTestApp({}, { database, extraApiRoutes: sendCodeRoute })
    opened.push(first, second)
    expect((await sendCode(first, 'shared@example.com')).statusCode).toBe(200)
    expect((await sendCode(second, 'shared@example.com')).statusCode).toBe(200)
    expect((await sendCode(first, 'shared@example.com')).statusCode).toBe(429)
  })
})
