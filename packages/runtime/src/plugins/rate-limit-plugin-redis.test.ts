import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  buildRateLimitHost,
  ping,
  type RateLimitHost,
  type RateLimitHostOptions,
  sendCode,
  tight,
} from '../../test/build-rate-limit-host.ts'
import { getFreePort } from '../../test/get-free-port.ts'
import { type RunningRedis, startRedis } from '../../test/start-redis.ts'

// The rate limits on bare hosts sharing their counters through a real redis-server (REDIS_URL);
// a missing redis-server fails these tests with the command that installs it.

describe('rate limits through Redis (REDIS_URL)', () => {
  let redis: RunningRedis
  const opened: RateLimitHost[] = []
  const open = async (options: RateLimitHostOptions = {}) => {
    const host = await buildRateLimitHost(options)
    opened.push(host)
    return host
  }
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterEach(async () => {
    for (const host of opened.splice(0)) await host.app.close()
  })
  afterAll(async () => {
    await redis?.stop()
  })

  it('enforces one shared limit across two instances: the (max+1)-th hit on either answers 429', async () => {
    const first = await open({ max: 5, redisUrl: redis.url })
    const second = await open({ max: 5, redisUrl: redis.url })
    const address = '198.51.100.77'
    const statuses = []
    for (const host of [first, second, first, second, second])
      statuses.push((await ping(host, address)).statusCode)
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    for (const host of [first, second]) {
      const limited = await ping(host, address)
      expect(limited.statusCode).toBe(429)
      expect(limited.json().error.code).toBe('RATE_LIMITED')
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    }
    expect((await ping(second, '198.51.100.78')).statusCode).toBe(200)
  })

  it('shares per-route limits and keyed rules between instances too', async () => {
    const first = await open({ redisUrl: redis.url })
    const second = await open({ redisUrl: redis.url })
    expect((await sendCode(first, 'shared@example.com', '203.0.113.60')).statusCode).toBe(200)
    expect((await sendCode(second, 'shared@example.com', '203.0.113.61')).statusCode).toBe(200)
    expect((await sendCode(first, 'shared@example.com', '203.0.113.62')).statusCode).toBe(429)

    const address = '203.0.113.63'
    expect([(await tight(first, address)).statusCode, (await tight(second, address)).statusCode]).toEqual([
      200, 200,
    ])
    expect((await tight(second, address)).statusCode).toBe(429)
  })

  it('refuses to start when REDIS_URL cannot be reached, naming the host but not the password', async () => {
    const port = await getFreePort()
    const failure = await buildRateLimitHost({ redisUrl: `redis://:hunter2@127.0.0.1:${port}` }).then(
      () => new Error('the host started'),
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
      const host = await open({ max: 2, redisUrl: own.url })
      expect((await ping(host, '198.51.100.95')).statusCode).toBe(200)
      await admin.call('CLIENT', 'PAUSE', '5000', 'ALL')
      const startedAt = performance.now()
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await ping(host, '198.51.100.96')).statusCode)
      expect(statuses).toEqual([200, 200, 429])
      // One hit waits for the 500 ms time-out; the next ones do not ask Redis at all.
      expect(performance.now() - startedAt).toBeLessThan(1_500)
    } finally {
      admin.disconnect()
      await own.stop()
    }
  })

  it('keeps limiting in memory, without waiting, when Redis goes away, and logs that it does', async () => {
    const own = await startRedis()
    try {
      const host = await open({ max: 2, redisUrl: own.url })
      expect((await ping(host, '198.51.100.90')).statusCode).toBe(200)
      await own.stop()
      const startedAt = performance.now()
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await ping(host, '198.51.100.91')).statusCode)
      expect(statuses).toEqual([200, 200, 429])
      expect(performance.now() - startedAt).toBeLessThan(2_000)
      expect(host.logs.some((line) => String(line.msg).startsWith('Redis failed; rate limits count'))).toBe(
        true,
      )
    } finally {
      await own.stop()
    }
  })
})
