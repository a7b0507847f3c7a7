import type { FastifyServerOptions } from 'fastify'
import { z } from 'zod'
import type { EnvProblem } from './env/setting-schemas.ts'

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

const millisecondsMessage = 'must be whole milliseconds from 1000 to 3600000'

const millisecondsSchema = z.coerce
  .number({ error: millisecondsMessage })
  .int(millisecondsMessage)
  .min(1_000, millisecondsMessage)
  .max(3_600_000, millisecondsMessage)

/**
 * REQUEST_TIMEOUT_MS, CONNECTION_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS (whole milliseconds, 1 000
 * to 3 600 000): fields of the host's section of the environment (env.ts).
 */
export const httpTimeoutsShape = {
  REQUEST_TIMEOUT_MS: millisecondsSchema.default(defaultHttpTimeouts.requestMs),
  CONNECTION_TIMEOUT_MS: millisecondsSchema.default(defaultHttpTimeouts.connectionMs),
  KEEP_ALIVE_TIMEOUT_MS: millisecondsSchema.default(defaultHttpTimeouts.keepAliveMs),
}

/**
 * The timeouts of the parsed `httpTimeoutsShape` fields. A keep-alive that outlasts the connection
 * timeout (the socket would be cut while the balancer still counts it as open) is a problem.
 */
export function readHttpTimeouts(
  env: { REQUEST_TIMEOUT_MS: number; CONNECTION_TIMEOUT_MS: number; KEEP_ALIVE_TIMEOUT_MS: number },
  problems: EnvProblem[],
): HttpTimeouts {
  if (env.KEEP_ALIVE_TIMEOUT_MS > env.CONNECTION_TIMEOUT_MS) {
    problems.push([
      'KEEP_ALIVE_TIMEOUT_MS',
      `must not exceed CONNECTION_TIMEOUT_MS (${env.CONNECTION_TIMEOUT_MS})`,
    ])
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
