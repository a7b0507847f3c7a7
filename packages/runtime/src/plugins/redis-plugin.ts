import { withTimeout } from '@quicklinks/core/with-timeout'
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The app's one Redis connection when REDIS_URL is set (shared rate-limit counters; a
     * subscriber takes its own with `app.redis.duplicate()`), undefined otherwise.
     */
    redis: Redis | undefined
  }
}

export type RedisPluginOptions = {
  /** REDIS_URL (redis:// or rediss://); undefined leaves `app.redis` undefined. */
  url: string | undefined
}

// Connecting at start-up waits this long before giving up, so a wrong REDIS_URL fails fast.
const connectTimeoutMs = 5_000

/** `host:port` of a Redis URL, never its password, for messages and logs. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`
}

const plugin: FastifyPluginAsync<RedisPluginOptions> = async (app, options) => {
  if (options.url === undefined) {
    app.decorate('redis', undefined)
    return
  }
  const where = describeRedisUrl(options.url)
  const redis = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    // A command sent while the connection is down fails after one retry instead of twenty;
    // callers on the request path (the rate-limit store) also bound each command themselves.
    maxRetriesPerRequest: 1,
  })
  // ioredis retries for ever in the background; log the first failure and the recovery, not
  // every attempt, so an outage is one warning and not one line every two seconds.
  let isFailing = false
  redis.on('error', (error: Error) => {
    if (isFailing) return
    isFailing = true
    app.log.warn({ err: error, redis: where }, 'Redis connection failed; reconnecting')
  })
  redis.on('ready', () => {
    if (!isFailing) return
    isFailing = false
    app.log.info({ redis: where }, 'Redis connection restored')
  })
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    throw new Error(
      `Cannot reach Redis at ${where} (REDIS_URL): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  app.decorate('redis', redis)
  app.addHook('onClose', async () => {
    // QUIT only over a live connection: while reconnecting it would wait in the offline queue.
    if (redis.status !== 'ready') {
      redis.disconnect()
      return
    }
    // A Redis that hangs must not hold the shutdown: QUIT gets one second, then the socket goes.
    await withTimeout(redis.quit(), 1_000, () => new Error('Redis did not answer QUIT')).catch(() => {})
    redis.disconnect()
  })
}

/**
 * Decorates `app.redis` with one connected ioredis client when REDIS_URL is set (undefined
 * otherwise) and closes it when the app closes. Registration rejects, naming host and port but
 * not the password, when Redis cannot be reached within 5 s: an instance configured to share
 * its counters must not start silently alone. Later outages are logged once; ioredis reconnects.
 */
export const redisPlugin = fp(plugin, { name: 'redis', fastify: '5.x' })
