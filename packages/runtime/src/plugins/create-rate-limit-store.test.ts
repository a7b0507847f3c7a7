import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../create-logger.ts'
import { createRateLimitStore } from './create-rate-limit-store.ts'

type Counter = { current: number; ttl: number }

function increment(
  store: FastifyRateLimitStore,
  key: string,
  timeWindow = 60_000,
  max = 10,
): Promise<Counter> {
  return new Promise((resolve, reject) =>
    store.incr(key, (error, result) => (error || !result ? reject(error) : resolve(result)), timeWindow, max),
  )
}

function buildMemoryStore(
  options: { maxMemoryKeys?: number; now?: () => number } = {},
): FastifyRateLimitStore {
  const Store = createRateLimitStore({ redis: undefined, logger: createLogger('silent'), ...options })
  return new Store({ global: true, max: 10, timeWindow: 60_000 })
}

describe('the in-memory rate-limit store', () => {
  it('counts hits per key in fixed windows and restarts a window once it has ended', async () => {
    let now = 1_000_000
    const store = buildMemoryStore({ now: () => now })
    expect(await increment(store, 'a', 1_000)).toEqual({ current: 1, ttl: 1_000 })
    now += 400
    expect(await increment(store, 'a', 1_000)).toEqual({ current: 2, ttl: 600 })
    expect(await increment(store, 'b', 1_000)).toEqual({ current: 1, ttl: 1_000 })
    now += 600
    expect(await increment(store, 'a', 1_000)).toEqual({ current: 1, ttl: 1_000 })
  })

  it('keeps at most maxMemoryKeys counters, dropping the oldest window first', async () => {
    const store = buildMemoryStore({ maxMemoryKeys: 2 })
    await increment(store, 'first')
    await increment(store, 'second')
    await increment(store, 'second')
    await increment(store, 'third')
    // 'first' was dropped: it starts again at 1; 'second' and 'third' kept their counts.
    expect((await increment(store, 'second')).current).toBe(3)
    expect((await increment(store, 'first')).current).toBe(1)
  })

  it('keeps the counters of routes with their own limit apart from the global ones', async () => {
    const store = buildMemoryStore()
    // The plugin passes its merged route settings, not the RouteOptions its types declare.
    const route = store.child({ routeInfo: { method: 'POST', url: '/api/x' } } as never)
    await increment(store, 'client')
    expect((await increment(route, 'client')).current).toBe(1)
    expect((await increment(store, 'client')).current).toBe(2)
  })
})
