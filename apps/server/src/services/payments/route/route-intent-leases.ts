import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import { type RouteIntent, routeIntents } from '../../../db/schema.ts'

// The tracker's leases on route_intents (part of the route intents' repository): which intents are
// due, who holds one, and when it is looked at next.

/** Intents one round of a lane looks at, at most. */
const intentsPerRound = 20
/** A claimed intent is left alone by other rounds (and instances) this long; extended while in flight. */
export const intentLeaseMs = 60_000
/** Routes nobody paid (no receipt) are kept this long, then deleted. */
const abandonedIntentAgeMs = 7 * 24 * 60 * 60_000

export type ClaimDueIntentsOptions = {
  provider: string
  nowMs: number
  /** Only this source chain; null for the catch-all lane. */
  chainId: number | null
  /** The catch-all lane leaves these chains to their own lanes. */
  exceptChainIds: number[]
}

/**
 * Leases the due intents of this provider (and lane) for `intentLeaseMs`, in one statement with
 * `FOR UPDATE SKIP LOCKED`, so several instances never track the same payment at once.
 */
export async function claimDueIntents(db: Database, options: ClaimDueIntentsOptions): Promise<RouteIntent[]> {
  const now = new Date(options.nowMs).toISOString()
  const leaseEnd = new Date(options.nowMs + intentLeaseMs).toISOString()
  const chainFilter =
    options.chainId !== null
      ? sql`AND from_chain_id = ${options.chainId}`
      : options.exceptChainIds.length > 0
        ? sql`AND from_chain_id NOT IN (${sql.join(
            options.exceptChainIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql``
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${routeIntents} SET locked_until = ${leaseEnd}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${routeIntents}
      WHERE provider = ${options.provider} AND next_check_at IS NOT NULL AND next_check_at <= ${now}
        AND (locked_until IS NULL OR locked_until < ${now}) ${chainFilter}
      ORDER BY next_check_at
      LIMIT ${intentsPerRound}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  const ids = result.rows.map((row) => row.id)
  if (ids.length === 0) return []
  return db
    .select()
    .from(routeIntents)
    .where(
      sql`${routeIntents.id} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
}

/** Leases one intent now, whatever its next check says, unless another round holds it. */
export async function claimIntent(db: Database, intentId: string, nowMs: number): Promise<RouteIntent[]> {
  const now = new Date(nowMs).toISOString()
  const leaseEnd = new Date(nowMs + intentLeaseMs).toISOString()
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${routeIntents} SET locked_until = ${leaseEnd}, attempts = attempts + 1
    WHERE id = ${intentId} AND next_check_at IS NOT NULL
      AND (locked_until IS NULL OR locked_until < ${now})
    RETURNING id`)
  if (result.rows.length === 0) return []
  return db.select().from(routeIntents).where(eq(routeIntents.id, intentId))
}

/** Whether a round holds the intent's lease now (and it is still to be tracked). */
export async function isLockedForTracking(db: Database, intentId: string, nowMs: number): Promise<boolean> {
  const [row] = await db
    .select({ lockedUntil: routeIntents.lockedUntil, nextCheckAt: routeIntents.nextCheckAt })
    .from(routeIntents)
    .where(eq(routeIntents.id, intentId))
    .limit(1)
  return row?.nextCheckAt != null && row.lockedUntil !== null && row.lockedUntil.getTime() >= nowMs
}

/** Renews the lease of an intent in flight (a heartbeat while a slow look goes on). */
export async function extendIntentLease(db: Database, intentId: string, nowMs: number): Promise<void> {
  await db
    .update(routeIntents)
    .set({ lockedUntil: new Date(nowMs + intentLeaseMs) })
    .where(eq(routeIntents.id, intentId))
}

/** Gives an intent back after a failed look, to be looked at again at `nextCheckAt`. */
export async function releaseIntent(db: Database, intentId: string, nextCheckAt: Date): Promise<void> {
  await db.update(routeIntents).set({ nextCheckAt, lockedUntil: null }).where(eq(routeIntents.id, intentId))
}

/** Deletes route intents that never got a receipt and are older than a week: quotes nobody paid. */
export async function deleteAbandonedIntents(db: Database, nowMs: number): Promise<void> {
  const cutoff = new Date(nowMs - abandonedIntentAgeMs)
  await db.delete(routeIntents).where(and(isNull(routeIntents.status), lt(routeIntents.createdAt, cutoff)))
}
