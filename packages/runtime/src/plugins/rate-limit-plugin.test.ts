import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  buildRateLimitHost,
  ping,
  type RateLimitHost,
  type RateLimitHostOptions,
  sendCode,
  tight,
} from '../../test/build-rate-limit-host.ts'

// The rate limits on a bare host, counting in memory: what every server process that registers
// them gets (the app server's wiring, its RATE_LIMIT_MAX and its probes, is in apps/server's
// rate-limit tests; the counters shared through Redis are in rate-limit-plugin-redis.test.ts).

describe('rate limits', () => {
  const opened: RateLimitHost[] = []
  const open = async (options: RateLimitHostOptions = {}) => {
    const host = await buildRateLimitHost(options)
    opened.push(host)
    return host
  }
  afterEach(async () => {
    for (const host of opened.splice(0)) await host.app.close()
  })

  describe('in memory (no REDIS_URL)', () => {
    it('answers 429 RATE_LIMITED with Retry-After once the global limit is used up', async () => {
      const host = await open({ max: 2 })
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await ping(host)).statusCode)
      expect(statuses).toEqual([200, 200, 429])
      const limited = await ping(host)
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
      expect((await ping(host, '198.51.100.2')).statusCode).toBe(200)
    })

    it("tells the client its window in X-RateLimit headers: the limit, what is left and the seconds to the window's end", async () => {
      const host = await open({ max: 2, timeWindow: 30_000 })
      const first = await ping(host)
      expect(first.headers['x-ratelimit-limit']).toBe('2')
      expect(first.headers['x-ratelimit-remaining']).toBe('1')
      expect(Number(first.headers['x-ratelimit-reset'])).toBe(30)
      expect((await ping(host)).headers['x-ratelimit-remaining']).toBe('0')
      const refused = await ping(host)
      expect(refused.statusCode).toBe(429)
      expect(refused.headers['x-ratelimit-limit']).toBe('2')
      expect(refused.headers['x-ratelimit-remaining']).toBe('0')
      expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(0)
      expect(refused.headers['retry-after']).toBe(refused.headers['x-ratelimit-reset'])
    })

    it('starts a new window once the old one has passed', async () => {
      // Only Date is faked (the in-memory counters read Date.now); timers stay real.
      vi.useFakeTimers({ toFake: ['Date'] })
      try {
        const host = await open({ max: 1, timeWindow: 400 })
        expect((await ping(host)).statusCode).toBe(200)
        expect((await ping(host)).statusCode).toBe(429)
        vi.setSystemTime(Date.now() + 399)
        expect((await ping(host)).statusCode).toBe(429)
        vi.setSystemTime(Date.now() + 1)
        expect((await ping(host)).statusCode).toBe(200)
      } finally {
        vi.useRealTimers()
      }
    })

    it('enforces tight per-route limits by contact and by IP', async () => {
      const host = await open()
      expect((await sendCode(host, 'a@example.com')).statusCode).toBe(200)
      expect((await sendCode(host, ' A@example.com')).statusCode).toBe(200)
      const byContact = await sendCode(host, 'a@example.com')
      expect(byContact.statusCode).toBe(429)
      expect(byContact.json().error.code).toBe('RATE_LIMITED')
      expect(Number(byContact.headers['retry-after'])).toBeGreaterThan(0)
      // The same contact from another IP is still limited: the counter is per contact.
      expect((await sendCode(host, 'a@example.com', '203.0.113.8')).statusCode).toBe(429)
      // The first IP has made 3 counted attempts; a fourth, for a new contact, hits the IP limit.
      expect((await sendCode(host, 'b@example.com')).statusCode).toBe(429)
      expect((await sendCode(host, 'c@example.com', '203.0.113.9')).statusCode).toBe(200)
    })

    it('counts per instance: two instances without Redis each allow the full limit', async () => {
      const first = await open({ max: 1 })
      const second = await open({ max: 1 })
      expect((await ping(first)).statusCode).toBe(200)
      expect((await ping(second)).statusCode).toBe(200)
      expect((await ping(first)).statusCode).toBe(429)
    })
  })

  describe('IPv6 per /64', () => {
    it('gives addresses of one /64 one counter, another /64 its own, and IPv4-mapped addresses the IPv4 counter', async () => {
      const host = await open({ max: 2 })
      expect((await ping(host, '2001:db8:1:2::1')).statusCode).toBe(200)
      expect((await ping(host, '2001:db8:1:2:ffff:ffff:ffff:fffe')).statusCode).toBe(200)
      expect((await ping(host, '2001:db8:1:2:0:0:0:99')).statusCode).toBe(429)
      expect((await ping(host, '2001:db8:1:3::1')).statusCode).toBe(200)

      expect((await ping(host, '192.0.2.5')).statusCode).toBe(200)
      expect((await ping(host, '::ffff:192.0.2.5')).statusCode).toBe(200)
      expect((await ping(host, '192.0.2.5')).statusCode).toBe(429)
    })

    it('keys per-route and per-IP rules by /64 too', async () => {
      const host = await open()
      expect((await tight(host, '2001:db8:a:b::1')).statusCode).toBe(200)
      expect((await tight(host, '2001:db8:a:b::2')).statusCode).toBe(200)
      expect((await tight(host, '2001:db8:a:b::3')).statusCode).toBe(429)
      expect((await tight(host, '2001:db8:a:c::3')).statusCode).toBe(200)

      // send-code allows 3 per client: three contacts from three addresses of one /64.
      for (const [index, suffix] of ['1', '2', '3'].entries()) {
        expect((await sendCode(host, `u${index}@example.com`, `2001:db8:5:6::${suffix}`)).statusCode).toBe(
          200,
        )
      }
      expect((await sendCode(host, 'u9@example.com', '2001:db8:5:6::4')).statusCode).toBe(429)
      expect((await sendCode(host, 'u9@example.com', '2001:db8:5:7::4')).statusCode).toBe(200)
    })
  })

  describe('TRUST_PROXY', () => {
    it('ignores X-Forwarded-For when off: every client behind a proxy shares its address', async () => {
      const host = await open({ max: 1 })
      expect((await ping(host, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200)
      expect((await ping(host, '10.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(429)
    })

    it('with two hops, reads the second entry from the right', async () => {
      const host = await open({ max: 1, trustProxy: 2 })
      const headers = { 'x-forwarded-for': '203.0.113.1, 10.0.0.9' }
      expect((await ping(host, '10.0.0.1', headers)).statusCode).toBe(200)
      expect((await ping(host, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1, 10.0.0.8' })).statusCode).toBe(
        429,
      )
    })

    it('with a list of proxies, believes X-Forwarded-For only from them', async () => {
      const host = await open({ max: 1, trustProxy: ['10.0.0.0/8'] })
      expect((await ping(host, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200)
      expect((await ping(host, '10.0.0.2', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(200)
      // A client reaching the server directly cannot pick its address.
      expect((await ping(host, '198.51.100.9', { 'x-forwarded-for': '203.0.113.3' })).statusCode).toBe(200)
      expect((await ping(host, '198.51.100.9', { 'x-forwarded-for': '203.0.113.4' })).statusCode).toBe(429)
    })
  })
})
