import type { Database, DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'

/** The Postgres NOTIFY channel every instance listens on (docs/decisions/0013). */
export const cacheChangeChannel = 'ql_cache_changed'

/** What a write changed, by cache: the keys each cache must forget. */
export type CacheChanges = {
  /** Slugs (any case) of links whose public read changed. */
  publicLinks?: string[]
  /** Ids of users whose own list of links changed. */
  linkLists?: string[]
  /** Hashes of session tokens that ended. */
  sessions?: string[]
  /** Ids of users whose row changed (their sessions' cached user is stale). */
  users?: string[]
}

const topics = ['publicLinks', 'linkLists', 'sessions', 'users'] as const

const reconnectDelaysMs = [250, 1000, 5000]

/**
 * Announces what a write changed, as a NOTIFY on `cacheChangeChannel` with `changes` as JSON.
 * Call it inside the writing transaction: Postgres delivers the notice to every listening
 * instance when (and only if) the transaction commits. Rejects when the database fails.
 */
export async function notifyCacheChanges(tx: Database, changes: CacheChanges): Promise<void> {
  await tx.execute(sql`select pg_notify(${cacheChangeChannel}, ${JSON.stringify(changes)})`)
}

/** Reads a notice's payload; undefined when it is not an object of string lists by known topic. */
export function parseCacheChanges(payload: string | undefined): CacheChanges | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(payload ?? '')
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const changes: CacheChanges = {}
  for (const [topic, keys] of Object.entries(parsed)) {
    const isKnown = (topics as readonly string[]).includes(topic)
    if (!isKnown || !Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) return undefined
    changes[topic as (typeof topics)[number]] = keys
  }
  return changes
}

export type CacheChangeHandlers = {
  /** What some instance changed (this one included); undefined when the notice was unreadable. */
  onChange(changes: CacheChanges | undefined): void
  /** The feed is up (true) or down (false): while down, changes elsewhere go unseen. */
  onStatus(isListening: boolean): void
}

/**
 * Listens to `cacheChangeChannel` until the returned function is called (see `listenToChannel`).
 * Resolves once the first attempt to listen succeeded or failed (a failure is retried, not thrown).
 */
export async function subscribeToCacheChanges(
  client: DatabaseClient,
  handlers: CacheChangeHandlers,
  logger: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  return listenToChannel(
    client,
    cacheChangeChannel,
    { onNotice: (payload) => handlers.onChange(parseCacheChanges(payload)), onStatus: handlers.onStatus },
    logger,
  )
}

/**
 * Listens to a NOTIFY channel until the returned function is called. On PGlite the listener
 * rides the one embedded connection (every app sharing the PGlite hears every commit); on
 * Postgres a dedicated connection outside the pool holds the LISTEN and reconnects after a
 * failure (250 ms, 1 s, then every 5 s), reporting each outage through `onStatus(false)`.
 * Resolves once the first attempt to listen succeeded or failed (a failure is retried, not thrown).
 */
export async function listenToChannel(
  client: DatabaseClient,
  channel: string,
  handlers: { onNotice(payload: string | undefined): void; onStatus(isListening: boolean): void },
  logger: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  if (client.kind === 'pglite') {
    const unlisten = await client.pglite.listen(channel, (payload) => handlers.onNotice(payload))
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
      logger.warn({ err: error, channel }, 'A NOTIFY listener lost its database connection; reconnecting')
    }
    void listener.end().catch(() => undefined)
    scheduleReconnect()
  }

  const connect = async () => {
    // The pool's own settings (URL, TLS, time-outs), on a connection the pool never hands out.
    const listener = new pg.Client(client.pool.options)
    listener.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotice(message.payload)
    })
    listener.on('error', (error) => drop(listener, error))
    listener.on('end', () => drop(listener))
    try {
      await listener.connect()
      await listener.query(`LISTEN ${channel}`)
    } catch (error) {
      logger.warn({ err: error, channel }, 'A NOTIFY listener could not listen; retrying')
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
