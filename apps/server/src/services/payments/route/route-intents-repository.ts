import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import {
  type RouteIntent,
  type RouteIntentReceipt,
  routeIntentReceipts,
  routeIntents,
} from '../../../db/schema.ts'

// The one module (with route-intent-leases.ts) that writes route_intents: a quote stores its intent,
// a posted receipt marks it for tracking, and the tracker moves it, always through these functions.

/** A write to make in the transaction of an intent's change (its webhook event's outbox row). */
export type PendingEventWrite = (tx: Pick<Database, 'execute'>) => Promise<unknown>

/** Writes the webhook events of route-intent changes (services/payments/tracking/payment-events.ts). */
export type PaymentEventWriter = {
  /**
   * The event a change of an intent calls for, ready to write in the change's own transaction;
   * null when the change is not an event or nobody is subscribed to it (nothing to build).
   */
  prepare(before: RouteIntent, after: RouteIntent, now: Date): Promise<PendingEventWrite | null>
}

/** Columns of a route intent a write may change. */
export type RouteIntentPatch = Partial<typeof routeIntents.$inferInsert>

/** status_raw of a record failed by the payer's own transaction that is not the route's: a matching one may still come. */
export const mismatchStatusRaw = 'failed_mismatch'

/** A posted hash's verdict, written in the same transaction as the intent's patch it leads to. */
export type ReceiptVerdict = { id: string; state: 'matched' | 'rejected'; reason: string | null }

/** Stores a new route intent (a quote). Throws on database errors. */
export async function insertRouteIntent(
  db: Database,
  values: typeof routeIntents.$inferInsert,
): Promise<void> {
  await db.insert(routeIntents).values(values)
}

/** A route intent by id, undefined when there is none. */
export async function readRouteIntent(db: Database, id: string): Promise<RouteIntent | undefined> {
  const [intent] = await db.select().from(routeIntents).where(eq(routeIntents.id, id)).limit(1)
  return intent
}

/**
 * Writes a patch to an intent, with a posted hash's verdict in the same transaction when one is
 * given (a crash between the two would leave a matched receipt beside an intent still waiting for
 * one, untracked for good), and the webhook event it causes, if any (`events`). Returns the next row: the intent as it now is. Throws on database errors.
 */
export async function updateRouteIntent(
  db: Database,
  intent: RouteIntent,
  patch: RouteIntentPatch,
  options: { nowMs: number; verdict?: ReceiptVerdict | undefined; events?: PaymentEventWriter | undefined },
): Promise<RouteIntent> {
  const updatedAt = new Date(options.nowMs)
  const next = { ...intent, ...patch, updatedAt } as RouteIntent
  const updateIntent = (handle: Pick<Database, 'update'>) =>
    handle
      .update(routeIntents)
      .set({ ...patch, updatedAt })
      .where(eq(routeIntents.id, intent.id))
  const verdict = options.verdict
  // A webhook event the change calls for goes into the outbox in the change's own transaction.
  const event = options.events === undefined ? null : await options.events.prepare(intent, next, updatedAt)
  if (verdict === undefined && event === null) await updateIntent(db)
  else {
    await db.transaction(async (tx) => {
      if (verdict !== undefined) {
        await tx
          .update(routeIntentReceipts)
          .set({ state: verdict.state, reason: verdict.reason, checkedAt: updatedAt })
          .where(eq(routeIntentReceipts.id, verdict.id))
      }
      await updateIntent(tx)
      if (event !== null) await event(tx)
    })
  }
  return next
}

/**
 * Marks an intent for tracking at once because a hash was posted for it (inside the caller's
 * transaction, beside the receipt row): submitted unless it already has a status, due now.
 */
export async function markRouteIntentSubmitted(
  handle: Pick<Database, 'update'>,
  id: string,
  now: Date,
  requestId: string | undefined,
): Promise<void> {
  await handle
    .update(routeIntents)
    .set({
      status: sql`coalesce(${routeIntents.status}, 'submitted')`,
      statusRaw: sql`coalesce(${routeIntents.statusRaw}, 'submitted')`,
      submittedAt: sql`coalesce(${routeIntents.submittedAt}, ${now.toISOString()}::timestamptz)`,
      nextCheckAt: now,
      updatedAt: now,
      ...(requestId === undefined ? {} : { requestId }),
    })
    .where(eq(routeIntents.id, id))
}

/** Whether calldata is exactly another stored route of the same payer (someone posted it against the wrong one). */
export async function paysAnotherRouteIntent(
  db: Database,
  intent: Pick<RouteIntent, 'id' | 'fromAddress' | 'fromChainId'>,
  input: string,
): Promise<boolean> {
  const [other] = await db
    .select({ id: routeIntents.id })
    .from(routeIntents)
    .where(
      and(
        eq(routeIntents.fromAddress, intent.fromAddress),
        eq(routeIntents.fromChainId, intent.fromChainId),
        sql`lower(${routeIntents.transactionRequest}->>'data') = ${input.toLowerCase()}`,
        sql`${routeIntents.id} <> ${intent.id}`,
      ),
    )
    .limit(1)
  return other !== undefined
}

/** The posted hashes of an intent in the given states, oldest first, at most `limit`. */
export async function listRouteIntentReceipts(
  db: Database,
  intentId: string,
  states: readonly string[],
  limit: number,
): Promise<RouteIntentReceipt[]> {
  return db
    .select()
    .from(routeIntentReceipts)
    .where(and(eq(routeIntentReceipts.intentId, intentId), inArray(routeIntentReceipts.state, [...states])))
    .orderBy(asc(routeIntentReceipts.createdAt))
    .limit(limit)
}

/** Settles one posted hash on its own (one that moves nothing on its intent). */
export async function settleRouteIntentReceipt(
  db: Database,
  verdict: ReceiptVerdict,
  nowMs: number,
): Promise<void> {
  await db
    .update(routeIntentReceipts)
    .set({ state: verdict.state, reason: verdict.reason, checkedAt: new Date(nowMs) })
    .where(eq(routeIntentReceipts.id, verdict.id))
}

/** Whether an intent still has posted hashes nobody has seen on chain yet. */
export async function hasPendingRouteIntentReceipts(db: Database, intentId: string): Promise<boolean> {
  const [pending] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(routeIntentReceipts)
    .where(and(eq(routeIntentReceipts.intentId, intentId), eq(routeIntentReceipts.state, 'pending')))
  return (pending?.count ?? 0) > 0
}
