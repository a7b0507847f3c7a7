import type { WebhookDelivery } from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import { webhookAttempts, webhookDeliveries, webhookEvents } from '../../db/schema.ts'
import { webhookDueChannel, writeWebhookEvent } from './webhook-outbox.ts'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function badCursor(): AppError {
  return new AppError('VALIDATION_FAILED', {
    field: 'cursor',
    message: 'Unreadable deliveries cursor',
    userMessage: 'cursor is not one this API handed out.',
  })
}

/** Cursor of a position in the log: the delivery's created_at (microseconds) and id. */
function encodeCursor(position: string, id: string): string {
  return Buffer.from(`${position}|${id}`).toString('base64url')
}

function decodeCursorOrThrow(cursor: string): { position: string; id: string } {
  const [position, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  if (extra !== undefined || position === undefined || id === undefined || !uuidPattern.test(id))
    throw badCursor()
  if (Number.isNaN(Date.parse(position))) throw badCursor()
  return { position, id }
}

/** Deliveries matching `where`, newest first, at most `limit`, each with its tries, and their positions. */
async function readDeliveries(
  db: Database,
  where: SQL | undefined,
  limit: number,
): Promise<{ delivery: WebhookDelivery; position: string }[]> {
  const rows = await db
    .select({
      delivery: webhookDeliveries,
      eventType: webhookEvents.type,
      position: sql<string>`to_char(${webhookDeliveries.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit)
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((row) => row.delivery.id),
            ),
          )
          .orderBy(desc(webhookAttempts.attempt))
  return rows.map(({ delivery, eventType, position }) => ({
    position,
    delivery: {
      id: delivery.id,
      eventId: delivery.eventId,
      eventType,
      state: delivery.state as WebhookDelivery['state'],
      attempts: delivery.attempts,
      nextAttemptAt: delivery.state === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
      lastStatusCode: delivery.lastStatusCode,
      lastLatencyMs: delivery.lastLatencyMs,
      lastResponseExcerpt: delivery.lastResponseExcerpt,
      lastError: delivery.lastError,
      attemptLog: attempts
        .filter((attempt) => attempt.deliveryId === delivery.id)
        .map((attempt) => ({
          attempt: attempt.attempt,
          at: attempt.createdAt.toISOString(),
          statusCode: attempt.statusCode,
          latencyMs: attempt.latencyMs,
          responseExcerpt: attempt.responseExcerpt,
          error: attempt.error,
        })),
      createdAt: delivery.createdAt.toISOString(),
      updatedAt: delivery.updatedAt.toISOString(),
    },
  }))
}

/**
 * One page of an endpoint's delivery log, newest first, each delivery with all its tries (newest
 * first). The caller has checked the endpoint is the user's. Throws VALIDATION_FAILED for a
 * cursor this API did not hand out.
 */
export async function listWebhookDeliveries(
  db: Database,
  endpointId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ data: WebhookDelivery[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursorOrThrow(page.cursor)
  const rows = await readDeliveries(
    db,
    and(
      eq(webhookDeliveries.endpointId, endpointId),
      after === undefined
        ? undefined
        : sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${after.position}::timestamptz, ${after.id}::uuid)`,
    ),
    page.limit + 1,
  )
  const shown = rows.slice(0, page.limit)
  const last = shown.at(-1)
  return {
    data: shown.map((row) => row.delivery),
    nextCursor:
      rows.length > page.limit && last !== undefined ? encodeCursor(last.position, last.delivery.id) : null,
  }
}

/** One delivery of the log by id, with its tries; 404 when the endpoint has no such delivery. */
export async function getWebhookDeliveryOrThrow(
  db: Database,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const [found] = uuidPattern.test(deliveryId)
    ? await readDeliveries(
        db,
        and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)),
        1,
      )
    : []
  if (found === undefined) {
    throw new AppError('NOT_FOUND', {
      message: `No delivery ${deliveryId}`,
      userMessage: 'No such delivery.',
    })
  }
  return found.delivery
}

/**
 * Queues another try of a delivery now (whatever its state), with the same event id and body;
 * the tries made so far stay in the log and numbering goes on; a delivery with a try in flight
 * is left to it. 404 for another endpoint's delivery.
 */
export async function redeliverWebhook(
  db: Database,
  endpointId: string,
  deliveryId: string,
  nowMs: number,
): Promise<WebhookDelivery> {
  if (!uuidPattern.test(deliveryId)) return getWebhookDeliveryOrThrow(db, endpointId, deliveryId)
  const now = new Date(nowMs)
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(webhookDeliveries)
      .set({ state: 'pending', nextAttemptAt: now, lockedUntil: null, updatedAt: now })
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.endpointId, endpointId),
          // A try in flight settles on its own: queuing another now would send it twice at once.
          sql`(${webhookDeliveries.lockedUntil} IS NULL OR ${webhookDeliveries.lockedUntil} < ${now.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ id: webhookDeliveries.id })
    if (updated.length > 0) await tx.execute(sql`select pg_notify(${webhookDueChannel}, '')`)
  })
  // Another endpoint's delivery or none moved nothing: the read answers 404.
  return getWebhookDeliveryOrThrow(db, endpointId, deliveryId)
}

/** Queues a `webhook.test` event to one endpoint (whatever it subscribes to) and answers its delivery. */
export async function sendTestWebhook(
  db: Database,
  endpoint: { id: string; userId: string },
  nowMs: number,
): Promise<WebhookDelivery> {
  const now = new Date(nowMs)
  const { eventId } = await db.transaction((tx) =>
    writeWebhookEvent(tx, {
      userId: endpoint.userId,
      type: 'webhook.test',
      endpointId: endpoint.id,
      now,
      data: {
        endpointId: endpoint.id,
        message: 'A test event from Quick Links: your endpoint is reachable.',
      },
    }),
  )
  const [delivery] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpoint.id)))
  if (delivery === undefined) throw new Error('test delivery not written')
  return getWebhookDeliveryOrThrow(db, endpoint.id, delivery.id)
}
