import { randomBytes } from 'node:crypto'
import type { WebhookEventType } from '@quicklinks/core/api/webhooks'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'

/** The NOTIFY channel a commit with new deliveries announces itself on (every instance listens). */
export const webhookDueChannel = 'ql_webhooks_due'

/** A new event id: `msg_` + 22 base64url characters (128 random bits), the `webhook-id` of every try. */
export function newWebhookEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`
}

/** An event about to be written: whose, what, and the API object it carries. */
export type WebhookEventInput = {
  userId: string
  type: WebhookEventType | 'webhook.test'
  data: Record<string, unknown>
  now: Date
  /** Only this endpoint (a test event); default: every enabled endpoint subscribed to `type`. */
  endpointId?: string
}

/** The body every delivery of an event sends: `{type, timestamp, data}` as JSON. */
export function buildWebhookBody(input: Pick<WebhookEventInput, 'type' | 'data' | 'now'>): string {
  return JSON.stringify({ type: input.type, timestamp: input.now.toISOString(), data: input.data })
}

/**
 * Writes an event to the outbox with one delivery per enabled endpoint of the user subscribed to
 * its type (docs/api.md#webhooks), in one statement; call it inside the transaction of the change
 * it reports, so both commit or neither does. Nothing is written when no endpoint wants it. The
 * commit wakes the delivery workers of every instance (NOTIFY). Answers the event id and how many
 * deliveries were queued. Rejects when the database fails (the caller's transaction rolls back).
 */
export async function writeWebhookEvent(
  tx: Pick<Database, 'execute'>,
  input: WebhookEventInput,
): Promise<{ eventId: string; deliveries: number }> {
  const eventId = newWebhookEventId()
  const body = buildWebhookBody(input)
  const subscribed =
    input.endpointId === undefined
      ? sql`e.user_id = ${input.userId} AND e.enabled AND e.events @> ${JSON.stringify([input.type])}::jsonb`
      : sql`e.user_id = ${input.userId} AND e.id = ${input.endpointId}`
  const result = await tx.execute<{ id: string }>(sql`
    WITH event AS (
      INSERT INTO webhook_events (id, user_id, type, body, created_at)
      SELECT ${eventId}, ${input.userId}, ${input.type}, ${body}, ${input.now.toISOString()}::timestamptz
      WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE ${subscribed})
      RETURNING id
    )
    INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at, created_at, updated_at)
    SELECT event.id, e.id, ${input.now.toISOString()}::timestamptz, ${input.now.toISOString()}::timestamptz,
      ${input.now.toISOString()}::timestamptz
    FROM event, webhook_endpoints e WHERE ${subscribed}
    RETURNING id`)
  const deliveries = result.rows.length
  if (deliveries > 0) await tx.execute(sql`select pg_notify(${webhookDueChannel}, '')`)
  return { eventId, deliveries }
}
