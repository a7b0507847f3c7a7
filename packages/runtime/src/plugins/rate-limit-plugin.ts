import fastifyRateLimit, { type FastifyRateLimitStore, normalizeIP } from '@fastify/rate-limit'
import { AppError } from '@quicklinks/core/app-error'
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify'
import fp from 'fastify-plugin'
import { createRateLimitStore } from './create-rate-limit-store.ts'
import { isApiPath } from './is-api-path.ts'

export type RateLimitPluginOptions = {
  /** Requests per client (IPv4 address or IPv6 /64) per minute across /api and /signer. */
  max: number
  /** Window length in milliseconds (60 000 unless a test shortens it). */
  timeWindow?: number
}

/** One tight limit for `createRateLimitHook`: at most `max` hits per `timeWindow` per key. */
export type RateLimitRule = {
  /** Names the counter, e.g. 'otp-send-contact'. Rules sharing a name share counters. */
  name: string
  max: number
  /** Milliseconds, or a string such as '3 minutes'. */
  timeWindow: number | string
  /** What to count by (see `getClientIpKey`, `getBodyFieldKey`); undefined skips the rule. */
  getKey: (request: FastifyRequest) => string | undefined
}

/** One IPv6 client is a /64: one subscriber usually holds a whole one. */
const clientIpv6PrefixLength = 64

function buildRateLimitedError(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', { details: { retryAfterSeconds } })
}

/** Static web files and pages are not counted: cheap to serve, and a page load fetches many. */
export const isNotCounted = (request: FastifyRequest): boolean => !isApiPath(request.url)

const plugin: FastifyPluginAsync<RateLimitPluginOptions> = async (app, options) => {
  const Store = createRateLimitStore({ redis: app.redis, logger: app.log })
  const timeWindow = options.timeWindow ?? 60_000
  const globalLimit = createGlobalLimitHook(new Store({}), options.max, timeWindow)
  // Before @fastify/rate-limit's own onRoute hook. A route outside /api, /signer, /health and
  // /ready (the web build's files, the pay page) gets no rate-limit hook at all, instead of one
  // that works out the client's key only to let the request through. An API route without its
  // own limit gets the global one as `globalLimit`, the plugin's rule in one callback hook (its
  // own hook is async and awaits three promises per request); a route with its own limit or
  // `rateLimit: false` is left to the plugin.
  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit !== undefined) return
    route.config = { ...route.config, rateLimit: false }
    if (!isApiPath(route.url)) return
    route.onRequest = [...(route.onRequest === undefined ? [] : [route.onRequest].flat()), globalLimit]
  })
  await app.register(fastifyRateLimit, {
    global: true,
    max: options.max,
    timeWindow,
    // The same store class (so the same counters) as `globalLimit`.
    store: Store,
    // Every limit without its own key counts per client: an IPv4 address or an IPv6 /64 (the
    // plugin's own key generator with this prefix length is `getClientIpKey`).
    ipv6Subnet: clientIpv6PrefixLength,
    errorResponseBuilder: (_request, context) => buildRateLimitedError(Math.ceil(context.ttl / 1000)),
  })
}

/**
 * The global per-client limit as @fastify/rate-limit applies it (fixed window in `store`, the
 * window's figures in X-RateLimit-Limit, -Remaining and -Reset; past `max`, Retry-After and 429
 * RATE_LIMITED), as one callback-style onRequest hook: with the in-memory store it answers
 * without a promise; with Redis it waits for the count. A store failure fails the request, as the
 * plugin does (the store itself falls back to memory rather than fail).
 */
function createGlobalLimitHook(
  store: FastifyRateLimitStore,
  max: number,
  timeWindow: number,
): onRequestHookHandler {
  return (request, reply, done) => {
    store.incr(
      getClientIpKey(request),
      (error, counter) => {
        if (error !== null || counter === undefined) {
          done(error ?? new Error('The rate-limit store answered no count'))
          return
        }
        const ttlSeconds = Math.ceil(counter.ttl / 1000)
        reply.header('x-ratelimit-limit', max)
        if (counter.current <= max) {
          reply.header('x-ratelimit-remaining', max - counter.current)
          reply.header('x-ratelimit-reset', ttlSeconds)
          done()
          return
        }
        reply.header('x-ratelimit-remaining', 0)
        reply.header('x-ratelimit-reset', ttlSeconds)
        reply.header('retry-after', ttlSeconds)
        done(buildRateLimitedError(ttlSeconds))
      },
      timeWindow,
      max,
    )
  }
}

/**
 * @fastify/rate-limit over our store (docs/decisions/0012): counters in memory, or in Redis
 * shared by every instance when REDIS_URL is set; never in SQL. A global per-client limit on
 * every API route, 429 RATE_LIMITED with Retry-After through the error model. A route sets its
 * own per-client limit with `config: { rateLimit: { max, timeWindow } }`, opts out with
 * `config: { rateLimit: false }` (probes), or adds keyed limits with `createRateLimitHook`.
 */
export const rateLimitPlugin = fp(plugin, { name: 'rate-limit', fastify: '5.x', dependencies: ['redis'] })

/**
 * A preHandler enforcing every rule (for example 10 per IP and 3 per contact per 3 minutes);
 * the first exceeded rule answers 429 RATE_LIMITED with Retry-After. It runs after validation,
 * so rules may key on the parsed body. Counters share the global limit's store (Redis or memory).
 */
export function createRateLimitHook(
  app: FastifyInstance,
  rules: RateLimitRule[],
): preHandlerAsyncHookHandler {
  const limiters = rules.map((rule) => ({
    rule,
    check: app.createRateLimit({
      max: rule.max,
      timeWindow: rule.timeWindow,
      keyGenerator: (request) => `${rule.name}:${rule.getKey(request) ?? ''}`,
    }),
  }))
  return async (request, reply) => {
    for (const { rule, check } of limiters) {
      if (rule.getKey(request) === undefined) continue
      const result = await check(request)
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', result.ttlInSeconds)
        throw buildRateLimitedError(result.ttlInSeconds)
      }
    }
  }
}

/**
 * Rate-limit key of the client: its IPv4 address, or the /64 prefix of its IPv6 address (one
 * subscriber usually holds a whole /64, so counting per address would let it rotate freely);
 * an IPv4-mapped IPv6 address counts as the IPv4 address. The address is `request.ip`, which
 * reads X-Forwarded-For only as far as TRUST_PROXY trusts the proxies in front.
 */
export function getClientIpKey(request: FastifyRequest): string {
  const ip = request.ip
  // An IPv4 address (no colon) is its own key, as normalizeIP would answer, without its IPv6 test.
  return ip.includes(':') ? normalizeIP(ip, clientIpv6PrefixLength) : ip.toLowerCase()
}

/**
 * Rate-limit key from a string field of the parsed body, trimmed and lower-cased so 'A@x.io ' and
 * 'a@x.io' share a counter; undefined when the field is absent.
 */
export function getBodyFieldKey(field: string): (request: FastifyRequest) => string | undefined {
  return (request) => {
    const body = request.body
    if (typeof body !== 'object' || body === null) return undefined
    const value = (body as Record<string, unknown>)[field]
    return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined
  }
}
