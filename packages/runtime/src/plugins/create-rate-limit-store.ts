import { createHash } from 'node:crypto'
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { withTimeout } from '@quicklinks/core/with-timeout'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'

type Counter = { current: number; ttl: number }
type StoreCallback = (error: Error | null, result?: Counter) => void
type StoreSettings = { continueExceeding?: boolean; exponentialBackoff?: boolean }
type RouteSettings = StoreSettings & { routeInfo?: { method?: string | string[]; url?: string } }

export type RateLimitStoreOptions = {
  /** Shares the counters between instances; without it every instance counts alone. */
  redis: Redis | undefined
  logger: FastifyBaseLogger
  /** Counters kept in memory at most (default 100 000); the oldest window goes first. */
  maxMemoryKeys?: number
  /** How long one Redis command may take before the hit is counted in memory (default 500 ms). */
  redisTimeoutMs?: number
  /** After a Redis failure, how long to count in memory before trying Redis again (default 5 s). */
  redisRetryAfterMs?: number
  now?: () => number
}

const keyPrefix = 'ql:rate:'

// One fixed window per key: INCR, and start the window (PEXPIRE) on the first hit, on a key that
// somehow lost its expiry, or on every hit over the limit when continueExceeding is on.
const incrementScript = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 or (ARGV[2] == '1' and current > tonumber(ARGV[3])) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`
const readScript = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return {0, 0} end
return {current, ttl}
`

type Script = { source: string; sha: string }
const toScript = (source: string): Script => ({
  source,
  sha: createHash('sha1').update(source).digest('hex'),
})
const increment = toScript(incrementScript)
const read = toScript(readScript)

/** Fixed windows in a Map whose insertion order is the order windows started. */
class MemoryCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()

  constructor(private readonly maxKeys: number) {}

  increment(key: string, timeWindow: number, max: number, continueExceeding: boolean, now: number): Counter {
    const window = this.windows.get(key)
    if (window === undefined || window.resetAt <= now) {
      this.startWindow(key, 1, now + timeWindow, now)
      return { current: 1, ttl: timeWindow }
    }
    window.count += 1
    if (continueExceeding && window.count > max) {
      this.startWindow(key, window.count, now + timeWindow, now)
      return { current: window.count, ttl: timeWindow }
    }
    return { current: window.count, ttl: window.resetAt - now }
  }

  read(key: string, now: number): Counter {
    const window = this.windows.get(key)
    return window === undefined || window.resetAt <= now
      ? { current: 0, ttl: 0 }
      : { current: window.count, ttl: window.resetAt - now }
  }

  // Re-inserting keeps the Map ordered by window start, so the front holds the oldest windows:
  // a few ended ones are dropped on each new window (constant cost, no timer), and when the Map
  // is full the oldest live one goes too (a flood of new keys cannot grow memory without bound).
  private startWindow(key: string, count: number, resetAt: number, now: number): void {
    this.windows.delete(key)
    let dropped = 0
    for (const [oldest, window] of this.windows) {
      const isFull = this.windows.size >= this.maxKeys
      if (!isFull && (window.resetAt > now || dropped >= 2)) break
      this.windows.delete(oldest)
      dropped += 1
    }
    this.windows.set(key, { count, resetAt })
  }
}

/** What every store of one app shares: the memory counters and the state of Redis. */
type SharedState = {
  memory: MemoryCounters
  redis: Redis | undefined
  logger: FastifyBaseLogger
  redisTimeoutMs: number
  redisRetryAfterMs: number
  now: () => number
  /** Until when hits are counted in memory because Redis failed (epoch ms); 0 when healthy. */
  redisFailedUntil: number
}

class RateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: SharedState,
    private readonly namespace: string,
    private readonly continueExceeding: boolean,
  ) {}

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    const fullKey = this.toFullKey(key)
    const redis = this.getHealthyRedis()
    if (redis === undefined) {
      callback(null, this.incrementInMemory(fullKey, timeWindow, max))
      return
    }
    const args = [timeWindow, this.continueExceeding ? 1 : 0, max]
    this.runScript(redis, increment, fullKey, args).then(
      (counter) => callback(null, counter),
      (error: unknown) => {
        this.markRedisFailed(error)
        callback(null, this.incrementInMemory(fullKey, timeWindow, max))
      },
    )
  }

  /** Non-mutating snapshot, for `createRateLimit()(request, { increment: false })`. */
  read(key: string, callback: StoreCallback): void {
    const fullKey = this.toFullKey(key)
    const redis = this.getHealthyRedis()
    if (redis === undefined) {
      callback(null, this.shared.memory.read(fullKey, this.shared.now()))
      return
    }
    this.runScript(redis, read, fullKey, []).then(
      (counter) => callback(null, counter),
      (error: unknown) => {
        this.markRedisFailed(error)
        callback(null, this.shared.memory.read(fullKey, this.shared.now()))
      },
    )
  }

  // The plugin passes its merged route settings (with `routeInfo`), not the RouteOptions its
  // type declarations claim; read only what it really passes.
  child(routeOptions: object): FastifyRateLimitStore {
    const settings = routeOptions as RouteSettings
    if (settings.exponentialBackoff)
      throw new Error('The rate-limit store does not support exponentialBackoff')
    const { method, url } = settings.routeInfo ?? {}
    // A route with its own limit counts apart from the global limit and from other routes;
    // `createRateLimit` limiters (no route) share 'custom' and name their rule in the key.
    const namespace = url === undefined ? 'custom' : `${[method].flat().join(',')} ${url}`
    return new RateLimitStore(this.shared, namespace, settings.continueExceeding ?? this.continueExceeding)
  }

  private toFullKey(key: string): string {
    // Keys may carry user input (a contact from a body): long ones are hashed to a fixed size.
    const safeKey = key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`
    return `${keyPrefix}${this.namespace}|${safeKey}`
  }

  private incrementInMemory(fullKey: string, timeWindow: number, max: number): Counter {
    return this.shared.memory.increment(fullKey, timeWindow, max, this.continueExceeding, this.shared.now())
  }

  /** Redis when configured, connected and not recently failed; else undefined (count in memory). */
  private getHealthyRedis(): Redis | undefined {
    const { redis } = this.shared
    if (redis === undefined) return undefined
    if (redis.status !== 'ready' || this.shared.now() < this.shared.redisFailedUntil) {
      if (this.shared.redisFailedUntil === 0) this.markRedisFailed(new Error(`Redis is ${redis.status}`))
      return undefined
    }
    if (this.shared.redisFailedUntil !== 0) {
      this.shared.redisFailedUntil = 0
      this.shared.logger.info('Rate limits are shared through Redis again')
    }
    return redis
  }

  private markRedisFailed(error: unknown): void {
    if (this.shared.redisFailedUntil === 0) {
      this.shared.logger.warn(
        { err: error },
        'Redis failed; rate limits count in this instance only until it answers again',
      )
    }
    this.shared.redisFailedUntil = this.shared.now() + this.shared.redisRetryAfterMs
  }

  private async runScript(redis: Redis, script: Script, key: string, args: number[]): Promise<Counter> {
    const { redisTimeoutMs } = this.shared
    const reply = await withTimeout(
      evaluate(redis, script, key, args),
      redisTimeoutMs,
      () => new Error(`Redis did not answer within ${redisTimeoutMs} ms`),
    )
    return parseCounter(reply)
  }
}

/** EVALSHA, loading the script with EVAL the first time a Redis server sees it. */
async function evaluate(redis: Redis, script: Script, key: string, args: number[]): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, 1, key, ...args)
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
    return redis.eval(script.source, 1, key, ...args)
  }
}

function parseCounter(reply: unknown): Counter {
  if (Array.isArray(reply) && typeof reply[0] === 'number' && typeof reply[1] === 'number') {
    return { current: reply[0], ttl: reply[1] }
  }
  throw new Error(`Unexpected rate-limit script reply ${JSON.stringify(reply)}`)
}

/**
 * A @fastify/rate-limit store class (the plugin instantiates it with its settings): fixed-window
 * counters in Redis when `redis` is given, so every instance shares them, else in this process's
 * memory. Nothing is written to the SQL database. When Redis fails or does not answer within
 * `redisTimeoutMs`, hits are counted in memory (per instance, so limits loosen by the number of
 * instances but never lift) and Redis is tried again after `redisRetryAfterMs`; the store never
 * fails a request. Exponential backoff is not supported and throws at registration.
 */
export function createRateLimitStore(options: RateLimitStoreOptions): FastifyRateLimitStoreCtor {
  const shared: SharedState = {
    memory: new MemoryCounters(options.maxMemoryKeys ?? 100_000),
    redis: options.redis,
    logger: options.logger,
    redisTimeoutMs: options.redisTimeoutMs ?? 500,
    redisRetryAfterMs: options.redisRetryAfterMs ?? 5_000,
    now: options.now ?? Date.now,
    redisFailedUntil: 0,
  }
  return class {
    constructor(settings: StoreSettings) {
      if (settings.exponentialBackoff)
        throw new Error('The rate-limit store does not support exponentialBackoff')
      // biome-ignore lint/correctness/noConstructorReturn: the plugin only knows `new Store(settings)`.
      return new RateLimitStore(shared, 'global', settings.continueExceeding ?? false)
    }
  } as unknown as FastifyRateLimitStoreCtor
}
