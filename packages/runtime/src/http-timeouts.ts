import type { FastifyServerOptions } from 'fastify'
import { z } from 'zod'

/** How long a server waits on a client (docs/api.md#timeouts), in milliseconds. */
export type HttpTimeouts = {
  /**
   * REQUEST_TIMEOUT_MS: to receive a whole request, headers and body (Node's `requestTimeout`). A
   * client that trickles its request (slowloris) is answered 408 and dropped. Handler time does not count.
   */
  requestMs: number
  /**
   * CONNECTION_TIMEOUT_MS: a socket with no traffic either way for this long is closed (Fastify's
   * `connectionTimeout`). Longer than the slowest answer (a route build waits on its provider).
   */
  connectionMs: number
  /**
   * KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection stays open this long after an answer.
   * Longer than the load balancer's idle timeout (60 s on most), so the server never closes a
   * connection the balancer is about to reuse.
   */
  keepAliveMs: number
}

/** The defaults: 30 s to send a request, 2 minutes of silence, 72 s idle keep-alive (Fastify's own). */
export const defaultHttpTimeouts: HttpTimeouts = {
  requestMs: 30_000,
  connectionMs: 120_000,
  keepAliveMs: 72_000,
}

const millisecondsSchema = z.coerce.number().int().min(1_000).max(3_600_000)

const timeoutsSchema = z.object({
  REQUEST_TIMEOUT_MS: millisecondsSchema.default(defaultHttpTimeouts.requestMs),
  CONNECTION_TIMEOUT_MS: millisecondsSchema.default(defaultHttpTimeouts.connectionMs),
  KEEP_ALIVE_TIMEOUT_MS: millisecondsSchema.default(defaultHttpTimeouts.keepAliveMs),
})

/**
 * Reads REQUEST_TIMEOUT_MS, CONNECTION_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS (whole milliseconds,
 * 1 000 to 3 600 000; empty means unset). Throws an Error naming each bad variable, also when the
 * keep-alive outlasts the connection timeout (the socket would be cut while the balancer still
 * counts it as open).
 */
export function parseHttpTimeouts(source: Record<string, string | undefined>): HttpTimeouts {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const parsed = timeoutsSchema.safeParse(present)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: must be whole milliseconds from 1000 to 3600000`,
    )
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const env = parsed.data
  if (env.KEEP_ALIVE_TIMEOUT_MS > env.CONNECTION_TIMEOUT_MS) {
    throw new Error(
      `Invalid environment:\n  KEEP_ALIVE_TIMEOUT_MS: must not exceed CONNECTION_TIMEOUT_MS (${env.CONNECTION_TIMEOUT_MS})`,
    )
  }
  return {
    requestMs: env.REQUEST_TIMEOUT_MS,
    connectionMs: env.CONNECTION_TIMEOUT_MS,
    keepAliveMs: env.KEEP_ALIVE_TIMEOUT_MS,
  }
}

/**
 * The Fastify options of a listening server (app, standalone signer, frames) for `timeouts`
 * (default `defaultHttpTimeouts`): Fastify's own defaults leave request and connection times
 * unbounded, so a client could hold a socket open for ever. Never throws.
 */
export function getHttpTimeoutOptions(
  timeouts: HttpTimeouts = defaultHttpTimeouts,
): Pick<FastifyServerOptions, 'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout'> {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.connectionMs,
    keepAliveTimeout: timeouts.keepAliveMs,
  }
}
