import fastifyRateLimit from '@fastify/rate-limit'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { createDatabaseRateLimitStore, deleteExpiredRateLimits } from './create-database-rate-limit-store.ts'
import { isApiPath } from './is-api-path.ts'

export type RateLimitPluginOptions = {
  /** Requests per client IP per minute across /api, /signer and /health. */
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

const sweepIntervalMs = 60_000

function buildRateLimitedError(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', { details: { retryAfterSeconds } })
}

const plugin: FastifyPluginAsync<RateLimitPluginOptions> = async (app, options) => {
  await app.register(fastifyRateLimit, {
    global: true,
    max: options.max,
    timeWindow: options.timeWindow ?? 60_000,
    store: createDatabaseRateLimitStore(app.db),
    // Static web files are not counted: cheap to serve, and a page load fetches many.
    allowList: (request) => !isApiPath(request.url),
    errorResponseBuilder: (_request, context) => buildRateLimitedError(Math.ceil(context.ttl / 1000)),
  })
  const sweeper = setInterval(() => {
    deleteExpiredRateLimits(app.db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'Rate-limit sweep failed'),
    )
  }, sweepIntervalMs)
  sweeper.unref()
  app.addHook('onClose', async () => clearInterval(sweeper))
}

/**
 * @fastify/rate-limit over the database store: a global per-IP limit on every API route, 429
 * RATE_LIMITED through the error model. A route sets its own simple per-IP limit with
 * `config: { rateLimit: { max, timeWindow } }`, or several keyed limits with `createRateLimitHook`.
 */
export const rateLimitPlugin = fp(plugin, { name: 'rate-limit', fastify: '5.x', dependencies: ['database'] })

/**
 * A preHandler enforcing every rule (for example 10 per IP and 3 per contact per 3 minutes);
 * the first exceeded rule answers 429 RATE_LIMITED with Retry-After. It runs after validation,
 * so rules may key on the parsed body. Counters live in the database, shared by all instances.
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

/** Rate-limit key: the client IP (the proxy's X-Forwarded-For when TRUST_PROXY is on). */
export function getClientIpKey(request: FastifyRequest): string {
  return request.ip
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
