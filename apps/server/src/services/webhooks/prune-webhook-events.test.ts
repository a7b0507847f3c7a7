import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users, webhookAttempts, webhookDeliveries, webhookEvents } from '../../db/schema.ts'
import { createWebhookWorker } from './create-webhook-worker.ts'
import { createWebhookEndpoint } from './manage-webhook-endpoints.ts'
import { pruneWebhookEvents, webhookRetentionMs } from './prune-webhook-events.ts'
import { writeWebhookEvent } from './webhook-outbox.ts'

/** The outbox keeps 30 days of history and never drops a delivery that is still due. */
let database: DatabaseClient
let userId: string
const day = 24 * 60 * 60 * 1000
const start = Date.parse('2026-10-01T00:00:00Z')

beforeAll(async () => {
  database = await createTestDatabase()
  const [user] = await database.db
    .insert(users)
    .values({ address: '0x00000000000000000000000000000000000000bb' })
    .returning()
  userId = user?.id as string
  await createWebhookEndpoint(database.db, {
    userId,
    url: 'http://127.0.0.1:9/hook',
    events: ['payment.succeeded'],
    isDevMode: true,
  })
})
afterAll(async () => {
  await database.close()
})

/** Writes an event at `atMs`, its one delivery in `state`, with one logged try when settled. */
async function eventAt(atMs: number, state: 'pending' | 'succeeded' | 'failed'): Promise<string> {
  const { eventId } = await database.db.transaction((tx) =>
    writeWebhookEvent(tx, { userId, type: 'payment.succeeded', data: { at: atMs }, now: new Date(atMs) }),
  )
  const [delivery] = await database.db
    .update(webhookDeliveries)
    .set({ state, attempts: state === 'pending' ? 0 : 1 })
    .where(eq(webhookDeliveries.eventId, eventId))
    .returning()
  if (state !== 'pending' && delivery) {
    await database.db.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attempt: 1,
      statusCode: 200,
      latencyMs: 3,
      createdAt: new Date(atMs),
    })
  }
  return eventId
}

async function remaining(ids: string[]): Promise<string[]> {
  const rows = await database.db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(inArray(webhookEvents.id, ids))
  return rows.map((row) => row.id).sort()
}

describe('pruning the webhook outbox', () => {
  it('deletes settled events past 30 days with their deliveries and tries, keeps newer ones and due ones', async () => {
    const now = start + 40 * day
    const oldSucceeded = await eventAt(start, 'succeeded')
    const oldFailed = await eventAt(start + day, 'failed')
    const oldPending = await eventAt(start + 2 * day, 'pending')
    const justInside = await eventAt(now - webhookRetentionMs + 60_000, 'succeeded')
    const recent = await eventAt(now - day, 'succeeded')

    expect(await pruneWebhookEvents(database.db, now)).toBe(2)

    expect(await remaining([oldSucceeded, oldFailed, oldPending, justInside, recent])).toEqual(
      [oldPending, justInside, recent].sort(),
    )
    const orphanDeliveries = await database.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.eventId, [oldSucceeded, oldFailed]))
    expect(orphanDeliveries).toEqual([])
    const tries = await database.db.select({ id: webhookAttempts.id }).from(webhookAttempts)
    // The tries of the two kept settled events remain; the pruned ones' went with them.
    expect(tries).toHaveLength(2)
    expect(await pruneWebhookEvents(database.db, now)).toBe(0)
  })

  it('runs from the delivery worker on its first round, then at most once an hour', async () => {
    let clock = start + 100 * day
    const first = await eventAt(start + 50 * day, 'succeeded')
    const worker = createWebhookWorker({
      db: database.db,
      logger: createLogger('silent'),
      isAllowingPrivate: true,
      wake: () => undefined,
      now: () => clock,
    })
    await worker.runOnce('')
    expect(await remaining([first])).toEqual([])

    const second = await eventAt(start + 60 * day, 'succeeded')
    clock += 30 * 60 * 1000
    await worker.runOnce('')
    expect(await remaining([second])).toEqual([second])
    clock += 31 * 60 * 1000
    await worker.runOnce('')
    expect(await remaining([second])).toEqual([])
    await worker.close?.()
  })
})
