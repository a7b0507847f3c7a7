import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'

/** How long an event, its deliveries and their tries stay in the log (docs/api.md#webhook-retention). */
export const webhookRetentionMs = 30 * 24 * 60 * 60 * 1000

/** Events deleted per statement, so one prune never holds a long lock on a large outbox. */
const pruneBatchSize = 1_000

/** Statements per prune: the rest waits for the next one (an hour later). */
const pruneMaxBatches = 20

/**
 * Deletes events older than the retention with their deliveries and tries (the foreign keys
 * cascade), oldest first, in batches; an event with a delivery still pending is kept whatever its
 * age, so nothing due is ever dropped. Answers how many events were deleted. Safe to run from every
 * instance at once (a row two deletes race for goes once). Rejects when the database fails.
 */
export async function pruneWebhookEvents(db: Database, nowMs: number): Promise<number> {
  const cutoff = new Date(nowMs - webhookRetentionMs).toISOString()
  let deleted = 0
  for (let batch = 0; batch < pruneMaxBatches; batch++) {
    const result = await db.execute<{ id: string }>(sql`
      DELETE FROM webhook_events WHERE id IN (
        SELECT event.id FROM webhook_events event
        WHERE event.created_at < ${cutoff}::timestamptz
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries delivery
            WHERE delivery.event_id = event.id AND delivery.state = 'pending'
          )
        ORDER BY event.created_at
        LIMIT ${pruneBatchSize}
      )
      RETURNING id`)
    deleted += result.rows.length
    if (result.rows.length < pruneBatchSize) break
  }
  return deleted
}
