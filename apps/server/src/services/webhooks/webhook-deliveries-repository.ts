import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, isNull, lte, sql } from 'drizzle-orm'
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.ts'
import type { WebhookAttemptResult } from './send-webhook.ts'

/**
 * When each try after the first is due, by the number of tries made (docs/api.md#webhook-retries):
 * the first goes at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the one before.
 */
export const webhookRetryDelaysMs = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const
/** Tries per delivery: the first and one per retry delay. */
export const webhookMaxAttempts = webhookRetryDelaysMs.length + 1
/** An endpoint whose deliveries have only failed for this long is disabled. */
export const webhookDisableAfterMs = 5 * 24 * 3_600_000
/** A claimed try not settled by then (its instance died) is claimed again: above the 15 s time-out. */
export const webhookLeaseMs = 20_000

/** A claimed try: what to send, where, signed with which secrets. */
export type ClaimedDelivery = {
  id: string
  eventId: string
  endpointId: string
  userId: string
  /** This try's number, 1 for the first. */
  attempt: number
  url: string
  body: string
  secrets: string[]
  /** When the event was made (the signature's timestamp is the try's own time). */
  eventCreatedAt: Date
}

/**
 * Claims up to `limit` due tries (pending, due, not leased, endpoint enabled) with a lease, at most
 * `perEndpoint` per endpoint and none for the endpoints in `busyEndpointIds` (their slots are full
 * here): one slow endpoint never takes every slot. `FOR UPDATE SKIP LOCKED` and the lease make
 * each try claimed by one instance; a try whose instance died is claimed again after the lease,
 * with the next attempt number. Rejects when the database fails.
 */
export async function claimDueDeliveries(
  db: Database,
  options: { nowMs: number; limit: number; perEndpoint: number; busyEndpointIds: readonly string[] },
): Promise<ClaimedDelivery[]> {
  const now = new Date(options.nowMs).toISOString()
  const leaseEnd = new Date(options.nowMs + webhookLeaseMs).toISOString()
  const busy =
    options.busyEndpointIds.length === 0
      ? sql``
      : sql`AND d.endpoint_id NOT IN (${sql.join(
          options.busyEndpointIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
  const claimed = await db.execute<{ id: string }>(sql`
    UPDATE webhook_deliveries SET locked_until = ${leaseEnd}::timestamptz, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM webhook_deliveries WHERE id IN (
        SELECT id FROM (
          SELECT candidate.id, candidate.next_attempt_at,
            row_number() OVER (PARTITION BY candidate.endpoint_id ORDER BY candidate.next_attempt_at) AS place
          FROM (
            -- The earliest due tries only (the due index, in order): a claim never sorts the whole
            -- queue. An endpoint whose slots here are full is left out, so its backlog cannot
            -- crowd the others out of the candidates.
            SELECT d.id, d.endpoint_id, d.next_attempt_at
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.state = 'pending' AND d.next_attempt_at <= ${now}::timestamptz
              AND (d.locked_until IS NULL OR d.locked_until < ${now}::timestamptz) AND e.enabled ${busy}
            ORDER BY d.next_attempt_at
            LIMIT ${options.limit * 8}
          ) candidate
        ) ranked
        WHERE place <= ${options.perEndpoint}
        ORDER BY next_attempt_at
        LIMIT ${options.limit}
      )
      AND state = 'pending' AND (locked_until IS NULL OR locked_until < ${now}::timestamptz)
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  if (claimed.rows.length === 0) return []
  const rows = await db.execute<{
    id: string
    event_id: string
    endpoint_id: string
    user_id: string
    attempts: number
    url: string
    body: string
    secret: string
    previous_secret: string | null
    previous_secret_expires_at: string | Date | null
    event_created_at: string | Date
  }>(sql`
    SELECT d.id, d.event_id, d.endpoint_id, e.user_id, d.attempts, e.url, ev.body, e.secret,
      e.previous_secret, e.previous_secret_expires_at, ev.created_at AS event_created_at
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id
    JOIN webhook_events ev ON ev.id = d.event_id
    WHERE d.id IN (${sql.join(
      claimed.rows.map((row) => sql`${row.id}::uuid`),
      sql`, `,
    )})
    ORDER BY d.next_attempt_at`)
  return rows.rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    userId: row.user_id,
    attempt: row.attempts,
    url: row.url,
    body: row.body,
    // During a rotation's grace period both secrets sign (the new one first).
    secrets:
      row.previous_secret !== null &&
      row.previous_secret_expires_at !== null &&
      new Date(row.previous_secret_expires_at).getTime() > options.nowMs
        ? [row.secret, row.previous_secret]
        : [row.secret],
    eventCreatedAt: new Date(row.event_created_at),
  }))
}

/** Whether an answer counts as delivered: any 2xx. */
export function isDelivered(result: WebhookAttemptResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
}

/** What settling a try did: the delivery's state now, and whether its endpoint was just disabled. */
export type SettledAttempt = { state: 'pending' | 'succeeded' | 'failed'; isEndpointDisabled: boolean }

/**
 * Records a try (the log's row) and moves its delivery: succeeded on a 2xx; else pending with the
 * next retry time, or failed after the last try. The endpoint's run of failures starts at its
 * first failure after a success and ends at a success; a failure 5 days into such a run disables
 * the endpoint (its pending deliveries wait until it is enabled again). One transaction; a try
 * already recorded (a lease that ran out while it was still in flight) is not recorded twice.
 */
export async function settleAttempt(
  db: Database,
  delivery: Pick<ClaimedDelivery, 'id' | 'endpointId' | 'attempt'>,
  result: WebhookAttemptResult,
  nowMs: number,
): Promise<SettledAttempt> {
  const now = new Date(nowMs)
  const isSuccess = isDelivered(result)
  const state = isSuccess ? 'succeeded' : delivery.attempt >= webhookMaxAttempts ? 'failed' : 'pending'
  const delay = webhookRetryDelaysMs[delivery.attempt - 1] ?? 0
  return db.transaction(async (tx) => {
    await tx
      .insert(webhookAttempts)
      .values({
        deliveryId: delivery.id,
        attempt: delivery.attempt,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        responseExcerpt: result.responseExcerpt,
        error: result.error,
        createdAt: now,
      })
      .onConflictDoNothing()
    await tx
      .update(webhookDeliveries)
      .set({
        state,
        nextAttemptAt: state === 'pending' ? new Date(nowMs + delay) : null,
        lockedUntil: null,
        lastStatusCode: result.statusCode,
        lastLatencyMs: result.latencyMs,
        lastResponseExcerpt: result.responseExcerpt,
        lastError: result.error,
        updatedAt: now,
      })
      .where(eq(webhookDeliveries.id, delivery.id))
    if (isSuccess) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(
          and(
            eq(webhookEndpoints.id, delivery.endpointId),
            sql`${webhookEndpoints.failingSince} IS NOT NULL`,
          ),
        )
      return { state, isEndpointDisabled: false }
    }
    await tx
      .update(webhookEndpoints)
      .set({ failingSince: now })
      .where(and(eq(webhookEndpoints.id, delivery.endpointId), isNull(webhookEndpoints.failingSince)))
    const disabled = await tx
      .update(webhookEndpoints)
      .set({
        enabled: false,
        disabledReason: 'Every delivery failed for 5 days',
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookEndpoints.id, delivery.endpointId),
          eq(webhookEndpoints.enabled, true),
          lte(webhookEndpoints.failingSince, new Date(nowMs - webhookDisableAfterMs)),
        ),
      )
      .returning({ id: webhookEndpoints.id })
    return { state, isEndpointDisabled: disabled.length > 0 }
  })
}

/**
 * Records many successful tries at once (the common case under load): each try's log row, each
 * delivery succeeded, and the failure runs of their endpoints ended, in one statement (so one
 * round trip and one commit for the whole batch, all or nothing). A try already recorded is not
 * recorded twice.
 */
export async function settleSucceededAttempts(
  db: Database,
  items: readonly { delivery: Pick<ClaimedDelivery, 'id' | 'attempt'>; result: WebhookAttemptResult }[],
  nowMs: number,
): Promise<void> {
  if (items.length === 0) return
  const now = new Date(nowMs).toISOString()
  const rows = sql.join(
    items.map(
      ({ delivery, result }) =>
        sql`(${delivery.id}::uuid, ${delivery.attempt}::int, ${result.statusCode}::int, ${result.latencyMs}::int, ${result.responseExcerpt}::text)`,
    ),
    sql`, `,
  )
  await db.execute(sql`
    WITH input (id, attempt, status_code, latency_ms, excerpt) AS (VALUES ${rows}),
    logged AS (
      INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, response_excerpt, created_at)
      SELECT id, attempt, status_code, latency_ms, excerpt, ${now}::timestamptz FROM input
      ON CONFLICT DO NOTHING
      RETURNING 1
    ),
    delivered AS (
      UPDATE webhook_deliveries d SET state = 'succeeded', next_attempt_at = NULL, locked_until = NULL,
        last_status_code = input.status_code, last_latency_ms = input.latency_ms,
        last_response_excerpt = input.excerpt, last_error = NULL, updated_at = ${now}::timestamptz
      FROM input WHERE d.id = input.id
      RETURNING d.endpoint_id
    )
    UPDATE webhook_endpoints SET failing_since = NULL
    WHERE failing_since IS NOT NULL AND id IN (SELECT endpoint_id FROM delivered)`)
}
