import {
  createRateLimitHook,
  getBodyFieldKey,
  getClientIpKey,
} from '@quicklinks/runtime/plugins/rate-limit-plugin'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { type RunningRedis, startRedis } from '@quicklinks/runtime/test/start-redis'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/build-test-app.ts'
import type { ServerConfig } from '../config/server-env.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

// GET /api/test/ping under the global limit; GET /api/test/tight with its own 2 per minute;
// POST /api/test/send-code shaped like an OTP send, 3 per IP and 2 per contact per minute.
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  // GET /api/test/ping: answers, counted by the global limit.
  app.get('/test/ping', async () => ({ data: { ok: true } }))
  app.get(
    '/test/tight',
    { config: { rateLimit: { max: 2, timeWindow: 60_000 } } },
    // GET /api/test/tight: answers, counted by its own per-client limit.
    async () => ({ data: { ok: true } }),
  )
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

function ping(testApp: TestApp, remoteAddress = '198.51.100.1', headers: Record<string, string> = {}) {
  return testApp.app.inject({ method: 'GET', url: '/api/test/ping', remoteAddress, headers })
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
  const open = async (overrides: Partial<ServerConfig> = {}, rateLimitWindowMs?: number) => {
    const testApp = await buildTestApp(overrides, {
      extraApiRoutes: testRoutes,
      ...(rateLimitWindowMs === undefined ? {} : { rateLimitWindowMs }),
    })
    opened.push(testApp)
    return testApp
  }
  afterEach(async () => {
    for (const testApp of opened.splice(0)) await testApp.close()
  })

  describe('in memory (no REDIS_URL)', () => {
    it('answers 429 RATE_LIMITED with Retry-After once the global limit is used up, and writes nothing to SQL', async () => {
      const testApp = await open({ rateLimitMax: 2 })
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await ping(testApp)).statusCode)
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
      expect((await ping(testApp, '198.51.100.2')).statusCode).toBe(200)
    })

    it('never limits /health or /ready: after a burst of 2,000 requests from one address both answer 200 at once', async () => {
      const testApp = await open({ rateLimitMax: 100 })
      const address = '198.51.100.20'
      const burst = await Promise.all(
        Array.from({ length: 2_000 }, (_, index) =>
          index % 2 === 0
            ? ping(testApp, address)
            : testApp.app.inject({ method: 'GET', url: '/health', remoteAddress: address }),
        ),
      )
      const pings = burst.filter((_, index) => index % 2 === 0).map((response) => response.statusCode)
      const healths = burst.filter((_, index) => index % 2 === 1).map((response) => response.statusCode)
      expect(pings.filter((status) => status === 200)).toHaveLength(100)
      expect(pings.filter((status) => status === 429)).toHaveLength(900)
      expect(new Set(healths)).toEqual(new Set([200]))

      const startedAt = performance.now()
      const health = await testApp.app.inject({ method: 'GET', url: '/health', remoteAddress: address })
      const ready = await testApp.app.inject({ method: 'GET', url: '/ready', remoteAddress: address })
      const headHealth = await testApp.app.inject({ method: 'HEAD', url: '/health', remoteAddress: address })
      const headReady = await testApp.app.inject({ method: 'HEAD', url: '/ready', remoteAddress: address })
      expect([health.statusCode, ready.statusCode, headHealth.statusCode, headReady.statusCode]).toEqual([
        200, 200, 200, 200,
      ])
      expect(performance.now() - startedAt).toBeLessThan(1_000)
      expect((await ping(testApp, address)).statusCode).toBe(429)
    })

    it('starts a new window once the old one has passed', async () => {
      // Only Date is faked (the in-memory counters read Date.now, captured when the app is built);
      // timers stay real, so the app and its database run as usual.
      vi.useFakeTimers({ toFake: ['Date'] })
      try {
        const testApp = await open({ rateLimitMax: 1 }, 400)
        expect((await ping(testApp)).statusCode).toBe(200)
        expect((await ping(testApp)).statusCode).toBe(429)
        vi.setSystemTime(Date.now() + 399)
        expect((await ping(testApp)).statusCode).toBe(429)
        vi.setSystemTime(Date.now() + 1)
        expect((await ping(testApp)).statusCode).toBe(200)
      } finally {
        vi.useRealTimers()
      }
    })

    it('enforces tight per-route limits by contact and by IP', async () => {
      const testApp = await open()
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

    it('counts per instance: two instances without Redis each allow the full limit', async () => {
      const database = await createTestDatabase()
      const first = await buildTestApp({ rateLimitMax: 1 }, { database, extraApiRoutes: testRoutes })
      const second = await buildTestApp({ rateLimitMax: 1 }, { database, extraApiRoutes: testRoutes })
      opened.push(first, second)
      expect((await ping(first)).statusCode).toBe(200)
      expect((await ping(second)).statusCode).toBe(200)
      expect((await ping(first)).statusCode).toBe(429)
    })
  })

  describe('IPv6 per /64', () => {
    it('gives addresses of one /64 one counter, another /64 its own, and IPv4-mapped addresses the IPv4 counter', async () => {
      const testApp = await open({ rateLimitMax: 2 })
      expect((await ping(testApp, '2001:db8:1:2::1')).statusCode).toBe(200)
      expect((await ping(testApp, '2001:db8:1:2:ffff:ffff:ffff:fffe')).statusCode).toBe(200)
      expect((await ping(testApp, '2001:db8:1:2:0:0:0:99')).statusCode).toBe(429)
      expect((await ping(testApp, '2001:db8:1:3::1')).statusCode).toBe(200)

      expect((await ping(testApp, '192.0.2.5')).statusCode).toBe(200)
      expect((await ping(testApp, '::ffff:192.0.2.5')).statusCode).toBe(200)
      expect((await ping(testApp, '192.0.2.5')).statusCode).toBe(429)
    })

    it('keys per-route and per-IP rules by /64 too', async () => {
      const testApp = await open()
      const tight = (remoteAddress: string) =>
        testApp.app.inject({ method: 'GET', url: '/api/test/tight', remoteAddress })
      expect((await tight('2001:db8:a:b::1')).statusCode).toBe(200)
      expect((await tight('2001:db8:a:b::2')).statusCode).toBe(200)
      expect((await tight('2001:db8:a:b::3')).statusCode).toBe(429)
      expect((await tight('2001:db8:a:c::3')).statusCode).toBe(200)

      // send-code allows 3 per client: three contacts from three addresses of one /64.
      for (const [index, suffix] of ['1', '2', '3'].entries()) {
        expect((await sendCode(testApp, `u${index}@example.com`, `2001:db8:5:6::${suffix}`)).statusCode).toBe(
          200,
        )
      }
      expect((await sendCode(testApp, 'u9@example.com', '2001:db8:5:6::4')).statusCode).toBe(429)
      expect((await sendCode(testApp, 'u9@example.com', '2001:db8:5:7::4')).statusCode).toBe(200)
    })
  })

  describe('TRUST_PROXY', () => {
    it('ignores X-Forwarded-For when off: every client behind a proxy shares its address', async () => {
      const testApp = await open({ rateLimitMax: 1 })
      expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200)
      expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(429)
    })

    it('with a hop count, counts the address the nearest proxy saw, whatever a client prepends', async () => {
      const testApp = await open({ rateLimitMax: 1, trustProxy: 1 })
      expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200)
      expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(200)
      // A forged left-most entry does not make the same client someone else.
      expect(
        (await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '198.18.0.1, 203.0.113.1' })).statusCode,
      ).toBe(429)
    })

    it('with two hops, reads the second entry from the right', async () => {
      const testApp = await open({ rateLimitMax: 1, trustProxy: 2 })
      const headers = { 'x-forwarded-for': '203.0.113.1, 10.0.0.9' }
      expect((await ping(testApp, '10.0.0.1', headers)).statusCode).toBe(200)
      expect(
        (await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1, 10.0.0.8' })).statusCode,
      ).toBe(429)
    })

    it('with a list of proxies, believes X-Forwarded-For only from them', async () => {
      const testApp = await open({ rateLimitMax: 1, trustProxy: ['10.0.0.0/8'] })
      expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200)
      expect((await ping(testApp, '10.0.0.2', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(200)
      // A client reaching the server directly cannot pick its address.
      expect((await ping(testApp, '198.51.100.9', { 'x-forwarded-for': '203.0.113.3' })).statusCode).toBe(200)
      expect((await ping(testApp, '198.51.100.9', { 'x-forwarded-for': '203.0.113.4' })).statusCode).toBe(429)
    })
  })

  describe('through Redis (REDIS_URL)', () => {
    let redis: RunningRedis
    beforeAll(async () => {
      redis = await startRedis()
    }, 30_000)
    afterAll(async () => {
      await redis?.stop()
    })

    it('enforces one shared limit across two instances: the (max+1)-th hit on either answers 429', async () => {
      const database = await createTestDatabase()
      const config = { rateLimitMax: 5, redisUrl: redis.url }
      const first = await buildTestApp(config, { database, extraApiRoutes: testRoutes })
      const second = await buildTestApp(config, { database, extraApiRoutes: testRoutes })
      opened.push(first, second)
      const address = '198.51.100.77'
      const statuses = []
      for (const testApp of [first, second, first, second, second])
        statuses.push((await ping(testApp, address)).statusCode)
      expect(statuses).toEqual([200, 200, 200, 200, 200])
      for (const testApp of [first, second]) {
        const limited = await ping(testApp, address)
        expect(limited.statusCode).toBe(429)
        expect(limited.json().error.code).toBe('RATE_LIMITED')
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
      }
      expect((await ping(second, '198.51.100.78')).statusCode).toBe(200)
    })

    it('shares per-route limits and keyed rules between instances too', async () => {
      const database = await createTestDatabase()
      const first = await buildTestApp({ redisUrl: redis.url }, { database, extraApiRoutes: testRoutes })
      const second = await buildTestApp({ redisUrl: redis.url }, { database, extraApiRoutes: testRoutes })
      opened.push(first, second)
      expect((await sendCode(first, 'shared@example.com', '203.0.113.60')).statusCode).toBe(200)
      expect((await sendCode(second, 'shared@example.com', '203.0.113.61')).statusCode).toBe(200)
      expect((await sendCode(first, 'shared@example.com', '203.0.113.62')).statusCode).toBe(429)

      const tight = (testApp: TestApp) =>
        testApp.app.inject({ method: 'GET', url: '/api/test/tight', remoteAddress: '203.0.113.63' })
      expect([(await tight(first)).statusCode, (await tight(second)).statusCode]).toEqual([200, 200])
      expect((await tight(second)).statusCode).toBe(429)
    })

    it('refuses to start when REDIS_URL cannot be reached, naming the host but not the password', async () => {
      const port = await getFreePort()
      const failure = await buildTestApp({ redisUrl: `redis://:hunter2@127.0.0.1:${port}` }).then(
        () => new Error('the app started'),
        (error: unknown) => error as Error,
      )
      expect(failure.message).toMatch(
        new RegExp(`^Cannot reach Redis at redis://127\\.0\\.0\\.1:${port} \\(REDIS_URL\\)`),
      )
      expect(failure.message).not.toMatch(/hunter2/)
    })

    it('counts in memory after 500 ms when Redis hangs, then stops waiting for it', async () => {
      const own = await startRedis()
      const admin = new Redis(own.url)
      try {
        const testApp = await open({ rateLimitMax: 2, redisUrl: own.url })
        expect((await ping(testApp, '198.51.100.95')).statusCode).toBe(200)
        await admin.call('CLIENT', 'PAUSE', '5000', 'ALL')
        const startedAt = performance.now()
        const statuses = []
        for (let i = 0; i < 3; i++) statuses.push((await ping(testApp, '198.51.100.96')).statusCode)
        expect(statuses).toEqual([200, 200, 429])
        // One hit waits for the 500 ms time-out; the next ones do not ask Redis at all.
        expect(performance.now() - startedAt).toBeLessThan(1_500)
      } finally {
        admin.disconnect()
        await own.stop()
      }
    })

    it('keeps limiting in memory, without waiting, when Redis goes away', async () => {
      const own = await startRedis()
      try {
        const testApp = await open({ rateLimitMax: 2, redisUrl: own.url })
        expect((await ping(testApp, '198.51.100.90')).statusCode).toBe(200)
        await own.stop()
        const startedAt = performance.now()
        const statuses = []
        for (let i = 0; i < 3; i++) statuses.push((await ping(testApp, '198.51.100.91')).statusCode)
        expect(statuses).toEqual([200, 200, 429])
        expect(performance.now() - startedAt).toBeLessThan(2_000)
        expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
        expect(
          testApp.logs.some((line) => String(line.msg).startsWith('Redis failed; rate limits count')),
        ).toBe(true)
      } finally {
        await own.stop()
      }
    })
  })
})
