import { type RunningRedis, startRedis } from '@quicklinks/runtime/test/start-redis'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/build-test-app.ts'
import type { ServerConfig } from '../config/server-env.ts'

// The app server's wiring of the runtime's rate limits: RATE_LIMIT_MAX on its API routes, its
// probes exempt, TRUST_PROXY and REDIS_URL passed through. Every case of the limits themselves
// (windows, keyed rules, IPv6 /64, proxies, Redis sharing and failing) is in
// packages/runtime/src/plugins/rate-limit-plugin*.test.ts, on a bare host.

// GET /api/test/ping: answers, counted by the global limit.
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/test/ping', async () => ({ data: { ok: true } }))
}

function ping(testApp: TestApp, remoteAddress = '198.51.100.1', headers: Record<string, string> = {}) {
  return testApp.app.inject({ method: 'GET', url: '/api/test/ping', remoteAddress, headers })
}

describe('rate limits', () => {
  const opened: TestApp[] = []
  const open = async (overrides: Partial<ServerConfig> = {}) => {
    const testApp = await buildTestApp(overrides, { extraApiRoutes: testRoutes })
    opened.push(testApp)
    return testApp
  }
  afterEach(async () => {
    for (const testApp of opened.splice(0)) await testApp.close()
  })

  it('answers 429 RATE_LIMITED with Retry-After once RATE_LIMIT_MAX is used up, on every API route, and writes nothing to SQL', async () => {
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

  it('with a TRUST_PROXY hop count, counts the address the nearest proxy saw, whatever a client prepends', async () => {
    const testApp = await open({ rateLimitMax: 1, trustProxy: 1 })
    expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200)
    expect((await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(200)
    // A forged left-most entry does not make the same client someone else.
    expect(
      (await ping(testApp, '10.0.0.1', { 'x-forwarded-for': '198.18.0.1, 203.0.113.1' })).statusCode,
    ).toBe(429)
  })

  describe('through Redis (REDIS_URL)', () => {
    let redis: RunningRedis
    beforeAll(async () => {
      redis = await startRedis()
    }, 30_000)
    afterAll(async () => {
      await redis?.stop()
    })

    it('enforces one shared limit across two app instances on one database', async () => {
      const database = await createTestDatabase()
      const config = { rateLimitMax: 5, redisUrl: redis.url }
      const first = await buildTestApp(config, { database, extraApiRoutes: testRoutes })
      const second = await buildTestApp(config, { database, extraApiRoutes: testRoutes })
      opened.push(first, second)
      const address = '198.51.100.77'
      const statuses = []
      for (const testApp of [first, second, first, second, second, first])
        statuses.push((await ping(testApp, address)).statusCode)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    })

    it('keeps limiting, and answering /health, when Redis goes away', async () => {
      const own = await startRedis()
      try {
        const testApp = await open({ rateLimitMax: 2, redisUrl: own.url })
        expect((await ping(testApp, '198.51.100.90')).statusCode).toBe(200)
        await own.stop()
        const statuses = []
        for (let i = 0; i < 3; i++) statuses.push((await ping(testApp, '198.51.100.91')).statusCode)
        expect(statuses).toEqual([200, 200, 429])
        expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
      } finally {
        await own.stop()
      }
    })
  })
})
