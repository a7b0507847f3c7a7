import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import { type FastifyPluginAsyncZod, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { HostConfig } from '../src/env.ts'
import { getTrustProxyOption } from '../src/get-trust-proxy-option.ts'
import { errorHandlerPlugin } from '../src/plugins/error-handler-plugin.ts'
import {
  createRateLimitHook,
  getBodyFieldKey,
  getClientIpKey,
  rateLimitPlugin,
} from '../src/plugins/rate-limit-plugin.ts'
import { redisPlugin } from '../src/plugins/redis-plugin.ts'
import { createMemoryLogger } from './create-memory-logger.ts'

/** A bare Fastify host with the runtime's rate limits, and the log lines it wrote. */
export type RateLimitHost = {
  app: FastifyInstance
  logs: Record<string, unknown>[]
}

export type RateLimitHostOptions = {
  /** The global per-client limit (RATE_LIMIT_MAX); 100 unless given. */
  max?: number
  /** The window in milliseconds; 60 000 unless given. */
  timeWindow?: number
  /** TRUST_PROXY as the host parses it; off unless given. */
  trustProxy?: HostConfig['trustProxy']
  /** REDIS_URL; counters in memory unless given. */
  redisUrl?: string
}

// GET /api/test/ping under the global limit; GET /api/test/tight with its own 2 per minute;
// POST /api/test/send-code shaped like an OTP send, 3 per IP and 2 per contact per minute.
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  // GET /api/test/ping: answers, counted by the global limit.
  app.get('/api/test/ping', async () => ({ data: { ok: true } }))
  app.get(
    '/api/test/tight',
    { config: { rateLimit: { max: 2, timeWindow: 60_000 } } },
    // GET /api/test/tight: answers, counted by its own per-client limit.
    async () => ({ data: { ok: true } }),
  )
  app.post(
    '/api/test/send-code',
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

/**
 * Builds a bare Fastify host the way every server process wires the runtime's rate limits
 * (Redis, the one error handler, the rate-limit plugin), with three test routes; the caller
 * closes `app`. Rejects when `redisUrl` cannot be reached, as the Redis plugin does.
 */
export async function buildRateLimitHost(options: RateLimitHostOptions = {}): Promise<RateLimitHost> {
  const logs: Record<string, unknown>[] = []
  const app = Fastify({
    loggerInstance: createMemoryLogger(logs),
    trustProxy: getTrustProxyOption(options.trustProxy ?? false),
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  try {
    await app.register(redisPlugin, { url: options.redisUrl })
    await app.register(errorHandlerPlugin)
    await app.register(rateLimitPlugin, {
      max: options.max ?? 100,
      ...(options.timeWindow === undefined ? {} : { timeWindow: options.timeWindow }),
    })
    await app.register(testRoutes)
    await app.ready()
  } catch (error) {
    await app.close()
    throw error
  }
  return { app, logs }
}

/** GET /api/test/ping from `remoteAddress` (with `headers`, e.g. X-Forwarded-For). */
export function ping(
  host: RateLimitHost,
  remoteAddress = '198.51.100.1',
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return host.app.inject({ method: 'GET', url: '/api/test/ping', remoteAddress, headers })
}

/** GET /api/test/tight (2 per client per minute) from `remoteAddress`. */
export function tight(host: RateLimitHost, remoteAddress: string): Promise<LightMyRequestResponse> {
  return host.app.inject({ method: 'GET', url: '/api/test/tight', remoteAddress })
}

/** POST /api/test/send-code for `contact` from `ip` (3 per IP, 2 per contact per minute). */
export function sendCode(
  host: RateLimitHost,
  contact: string,
  ip = '203.0.113.7',
): Promise<LightMyRequestResponse> {
  return host.app.inject({
    method: 'POST',
    url: '/api/test/send-code',
    remoteAddress: ip,
    payload: { contact },
  })
}
