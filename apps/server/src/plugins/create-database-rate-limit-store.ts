import { createHash } from 'node:crypto'
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { and, eq, gt, lte, sql } from 'drizzle-orm'
import type { Database } from '../db/create-database-client.ts'
import { rateLimits } from '../db/schema.ts'

type Counter = { current: number; ttl: number }
type StoreCallback = (error: Error | null, result?: Counter) => void
type StoreSettings = { continueExceeding?: boolean; exponentialBackoff?: boolean }
type RouteSettings = StoreSettings & { routeInfo?: { method?: string | string[]; url?: string } }

// Remaining window in ms, from the database's clock so every instance agrees.
const remainingMs = sql<number>`greatest(0, ceil(extract(epoch from ("rate_limits"."expires_at" - now())) * 1000))::integer`

/**
 * Fixed-window counters in the `rate_limits` table, one atomic upsert per hit, so every app
 * server instance shares them (ARCHITECTURE: the app server is stateless).
 */
class DatabaseRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly db: Database,
    private readonly namespace: string,
    private readonly continueExceeding: boolean,
  ) {}

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    this.increment(this.toRowKey(key), timeWindow, max).then(
      (counter) => callback(null, counter),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    )
  }

  /** Non-mutating snapshot, for `createRateLimit()(request, { increment: false })`. */
  read(key: string, callback: StoreCallback): void {
    this.peek(this.toRowKey(key)).then(
      (counter) => callback(null, counter),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    )
  }

  // The plugin passes its merged route settings (with `routeInfo`), not the RouteOptions its
  // type declarations claim; read only what it really passes.
  child(routeOptions: object): FastifyRateLimitStore {
    const settings = routeOptions as RouteSettings
    const { method, url } = settings.routeInfo ?? {}
    // A route with its own limit counts apart from the global limit and from other routes.
    const namespace = url === undefined ? 'custom' : `${[method].flat().join(',')} ${url}`
    return new DatabaseRateLimitStore(
      this.db,
      namespace,
      settings.continueExceeding ?? this.continueExceeding,
    )
  }

  private toRowKey(key: string): string {
    const full = `${this.namespace}|${key}`
    return full.length <= 200
      ? full
      : `${this.namespace}|sha256:${createHash('sha256').update(key).digest('hex')}`
  }

  private async increment(key: string, timeWindow: number, max: number): Promise<Counter> {
    const newExpiry = sql`now() + ${timeWindow}::double precision * interval '1 millisecond'`
    const isExpired = sql`"rate_limits"."expires_at" <= now()`
    const restartsWindow = sql`(${isExpired} OR (${this.continueExceeding}::boolean AND "rate_limits"."count" + 1 > ${max}::integer))`
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, count: 1, expiresAt: newExpiry })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${isExpired} THEN 1 ELSE "rate_limits"."count" + 1 END`,
          expiresAt: sql`CASE WHEN ${restartsWindow} THEN excluded.expires_at ELSE "rate_limits"."expires_at" END`,
        },
      })
      .returning({ current: rateLimits.count, ttl: remainingMs })
    if (!row) throw new Error('Rate-limit upsert returned no row')
    return row
  }

  private async peek(key: string): Promise<Counter> {
    const [row] = await this.db
      .select({ current: rateLimits.count, ttl: remainingMs })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), gt(rateLimits.expiresAt, sql`now()`)))
    return row ?? { current: 0, ttl: 0 }
  }
}

/**
 * A @fastify/rate-limit store class bound to a database (the plugin instantiates it with its
 * settings). Exponential backoff is not supported and throws at registration; a database error
 * fails the request (500) rather than silently lifting the limit.
 */
export function createDatabaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  return class {
    constructor(settings: StoreSettings) {
      if (settings.exponentialBackoff)
        throw new Error('The database rate-limit store does not support exponentialBackoff')
      // biome-ignore lint/correctness/noConstructorReturn: the plugin only knows `new Store(settings)`.
      return new DatabaseRateLimitStore(db, 'global', settings.continueExceeding ?? false)
    }
  } as unknown as FastifyRateLimitStoreCtor
}

/** Deletes windows that ended; any instance may run it, as often as it likes. */
export async function deleteExpiredRateLimits(db: Database): Promise<void> {
  await db.delete(rateLimits).where(lte(rateLimits.expiresAt, sql`now()`))
}
