import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import type { Database, DatabaseClient } from '../../db/create-database-client.ts'
import { toPublicLinkCacheKey } from './public-link-cache.ts'

/** The Postgres NOTIFY channel every instance listens on (docs/decisions/0013). */
export const linkChangeChannel = 'ql_link_changed'

const reconnectDelaysMs = [250, 1000, 5000]

/**
 * Announces that the links with these slugs changed, as a NOTIFY on `linkChangeChannel` with
 * the slugs' cache keys as a JSON array. Call it inside the writing transaction: Postgres
 * delivers the notice to every listening instance when (and only if) the transaction commits.
 * Rejects when the database fails.
 */
export async function notifyLinkChanged(tx: Database, slugs: readonly string[]): Promise<void> {
  const keys = [...new Set(slugs.map(toPublicLinkCacheKey))]
  await tx.execute(sql`select pg_notify(${linkChangeChannel}, ${JSON.stringify(keys)})`)
}

/** Reads a notice's payload; undefined when it is not a JSON array of strings. */
export function parseLinkChangePayload(payload: string | undefined): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(payload ?? '')
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined
  } catch {
    return undefined
  }
}

export type LinkChangeHandlers = {
  /** Slugs some instance changed (this one included); undefined when the notice was unreadable. */
  onChange(slugs: string[] | undefined): void
  /** The feed is up (true) or down (false): while down, changes elsewhere go unseen. */
  onStatus(isListening: boolean): void
}

/**
 * Listens to `linkChangeChannel` until the returned function is called. On PGlite the listener
 * rides the one embedded connection (every app sharing the PGlite hears every commit); on
 * Postgres a dedicated connection outside the pool holds the LISTEN and reconnects after a
 * failure (250 ms, 1 s, then every 5 s), reporting each outage through `onStatus(false)`.
 * Resolves once the first attempt to listen succeeded or failed (a failure is retried, not thrown).
 */
export async function subscribeToLinkChanges(
  client: DatabaseClient,
  handlers: LinkChangeHandlers,
  logger: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  if (client.kind === 'pglite') {
    const unlisten = await client.pglite.listen(linkChangeChannel, (payload) =>
      handlers.onChange(parseLinkChangePayload(payload)),
    )
    handlers.onStatus(true)
    return async () => {
      if (!client.pglite.closed) await unlisten()
    }
  }

  let isStopped = false
  let failures = 0
  let current: pg.Client | undefined
  let retryTimer: NodeJS.Timeout | undefined

  const scheduleReconnect = () => {
    if (isStopped || retryTimer !== undefined) return
    const delay = reconnectDelaysMs[Math.min(failures, reconnectDelaysMs.length - 1)] ?? 5000
    failures += 1
    retryTimer = setTimeout(() => {
      retryTimer = undefined
      void connect()
    }, delay)
    retryTimer.unref()
  }

  const drop = (listener: pg.Client, error?: unknown) => {
    if (current !== listener) return
    current = undefined
    handlers.onStatus(false)
    if (!isStopped) {
      logger.warn({ err: error }, 'The link change feed lost its database connection; reconnecting')
    }
    void listener.end().catch(() => undefined)
    scheduleReconnect()
  }

  const connect = async () => {
    // The pool's own settings (URL, TLS, time-outs), on a connection the pool never hands out.
    const listener = new pg.Client(client.pool.options)
    listener.on('notification', (message) => {
      if (message.channel === linkChangeChannel) handlers.onChange(parseLinkChangePayload(message.payload))
    })
    listener.on('error', (error) => drop(listener, error))
    listener.on('end', () => drop(listener))
    try {
      await listener.connect()
      await listener.query(`LISTEN ${linkChangeChannel}`)
    } catch (error) {
      logger.warn({ err: error }, 'The link change feed could not listen; retrying')
      listener.removeAllListeners('end')
      void listener.end().catch(() => undefined)
      scheduleReconnect()
      return
    }
    if (isStopped) {
      await listener.end().catch(() => undefined)
      return
    }
    current = listener
    failures = 0
    handlers.onStatus(true)
  }

  await connect()
  return async () => {
    isStopped = true
    clearTimeout(retryTimer)
    const listener = current
    current = undefined
    if (listener !== undefined) {
      listener.removeAllListeners('end')
      await listener.end().catch(() => undefined)
    }
  }
}
