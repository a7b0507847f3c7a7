import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { users, webhookDeliveries, webhookEndpoints } from '../../db/schema.ts'
import { createWebhookWorker, type WebhookWorker } from './create-webhook-worker.ts'
import { createWebhookEndpoint, rotateWebhookSecret } from './manage-webhook-endpoints.ts'
import { webhookDisableAfterMs, webhookRetryDelaysMs } from './webhook-deliveries-repository.ts'
import { listWebhookDeliveries } from './webhook-delivery-log.ts'
import { writeWebhookEvent } from './webhook-outbox.ts'

/**
 * The delivery worker against a real receiver on loopback, each request verified with the
 * independent `standardwebhooks` package, on the clock the test moves.
 */
type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number }
type Answer = { status: number; body?: string; delayMs?: number }

let database: DatabaseClient
let server: Server
let origin: string
const received: Received[] = []
let answerFor: (path: string, count: number) => Answer = () => ({ status: 200 })
let clock = Date.parse('2026-11-28T00:00:00Z')
const disabledNotices: string[] = []
let worker: WebhookWorker
let userId: string

beforeAll(async () => {
  database = await createTestDatabase()
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? ''
      received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      })
      const answer = answerFor(path, received.filter((each) => each.path === path).length)
      setTimeout(() => {
        response.writeHead(answer.status)
        response.end(answer.body ?? 'ok')
      }, answer.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const [user] = await database.db
    .insert(users)
    .values({ address: '0x00000000000000000000000000000000000000aa' })
    .returning()
  userId = user?.id as string
})
afterAll(async () => {
  await worker?.idle()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await database.close()
})
beforeEach(() => {
  worker = createWebhookWorker({
    db: database.db,
    logger: createLogger('silent'),
    isAllowingPrivate: true,
    wake: () => undefined,
    onEndpointDisabled: async (delivery) => {
      disabledNotices.push(delivery.endpointId)
    },
    perEndpoint: 5,
    timeoutMs: 5_000,
    now: () => clock,
  })
})

/** One round, then every try it started has settled. */
async function round(): Promise<void> {
  await worker.runOnce('')
  await worker.idle()
}

async function addEndpoint(path: string, events: string[] = ['payment.succeeded']) {
  return createWebhookEndpoint(database.db, {
    userId,
    url: `${origin}${path}`,
    events: events as ['payment.succeeded'],
    isDevMode: true,
  })
}

async function queue(type = 'payment.succeeded', data: Record<string, unknown> = { intentId: 'i-1' }) {
  return database.db.transaction((tx) =>
    writeWebhookEvent(tx, { userId, type: type as 'payment.succeeded', data, now: new Date(clock) }),
  )
}

const of = (path: string) => received.filter((each) => each.path === path)

describe('the webhook delivery worker', () => {
  it('retries a 500 with the same webhook-id, each try verifiable, and logs every try', async () => {
    const endpoint = await addEndpoint('/flaky')
    answerFor = (path, count) =>
      path === '/flaky' && count <= 2 ? { status: 500, body: 'down' } : { status: 200 }
    const { eventId, deliveries } = await queue('payment.succeeded', { intentId: 'flaky-1' })
    expect(deliveries).toBe(1)

    await round()
    expect(of('/flaky')).toHaveLength(1)
    await round()
    // The second try waits 5 s.
    expect(of('/flaky')).toHaveLength(1)
    clock += webhookRetryDelaysMs[0]
    await round()
    clock += webhookRetryDelaysMs[1]
    await round()
    const tries = of('/flaky')
    expect(tries).toHaveLength(3)
    for (const each of tries) {
      expect(each.headers['webhook-id']).toBe(eventId)
      const payload = new Webhook(endpoint.secret).verify(each.body, each.headers as Record<string, string>)
      expect(payload).toMatchObject({ type: 'payment.succeeded', data: { intentId: 'flaky-1' } })
    }
    expect(tries[0]?.body).toBe(tries[2]?.body)

    const log = await listWebhookDeliveries(database.db, endpoint.id, { limit: 10 })
    expect(log.data).toHaveLength(1)
    expect(log.data[0]).toMatchObject({ eventId, state: 'succeeded', attempts: 3, lastStatusCode: 200 })
    expect(log.data[0]?.attemptLog.map((each) => [each.attempt, each.statusCode])).toEqual([
      [3, 200],
      [2, 500],
      [1, 500],
    ])
    expect(log.data[0]?.attemptLog[1]?.responseExcerpt).toBe('down')
  })

  it('follows the schedule (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then fails the delivery', async () => {
    const endpoint = await addEndpoint('/down')
    answerFor = (path) => (path === '/down' ? { status: 503 } : { status: 200 })
    await queue()
    await round()
    for (const delay of webhookRetryDelaysMs) {
      const [row] = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id))
      expect(row?.state).toBe('pending')
      expect(row?.nextAttemptAt?.getTime()).toBe(clock + delay)
      clock += delay - 1
      await round()
      expect(of('/down')).toHaveLength(row?.attempts ?? 0)
      clock += 1
      await round()
    }
    expect(of('/down')).toHaveLength(8)
    const [row] = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    expect(row).toMatchObject({ state: 'failed', attempts: 8, nextAttemptAt: null, lastStatusCode: 503 })
    clock += 24 * 3_600_000
    await round()
    expect(of('/down')).toHaveLength(8)
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
  })

  it('disables an endpoint after 5 days of only failures, tells its owner, and holds its deliveries', async () => {
    const endpoint = await addEndpoint('/dead', ['invoice.paid'])
    answerFor = (path) => (path === '/dead' ? { status: 500 } : { status: 200 })
    await queue('invoice.paid')
    await round()
    clock += webhookDisableAfterMs
    await queue('invoice.paid')
    await round()
    expect(disabledNotices).toEqual([endpoint.id])
    const [row] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id))
    expect(row).toMatchObject({ enabled: false, disabledReason: 'Every delivery failed for 5 days' })
    const before = of('/dead').length
    clock += 24 * 3_600_000
    await round()
    expect(of('/dead')).toHaveLength(before)
    await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
  })

  it("sends to one endpoint while another's deliveries hang", async () => {
    const slow = await addEndpoint('/slow', ['link.created'])
    const fast = await addEndpoint('/fast', ['link.created'])
    answerFor = (path) => (path === '/slow' ? { status: 200, delayMs: 1_500 } : { status: 200 })
    for (let index = 0; index < 20; index += 1) await queue('link.created', { id: `link-${index}` })
    const started = Date.now()
    await worker.runOnce('')
    // The slow endpoint holds only its own 5 slots; the fast one got all 20 at once.
    await expect.poll(() => of('/fast').length, { timeout: 1_000, interval: 20 }).toBe(5)
    expect(Date.now() - started).toBeLessThan(1_500)
    await worker.idle()
    for (let index = 0; index < 3; index += 1) await round()
    expect(of('/fast')).toHaveLength(20)
    await worker.idle()
    for (const endpoint of [slow, fast]) {
      await database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
    }
  })

  it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
    const endpoint = await addEndpoint('/rotating', ['link.updated'])
    answerFor = () => ({ status: 200 })
    const rotated = await rotateWebhookSecret(database.db, userId, endpoint.id, clock)
    await queue('link.updated')
    await round()
    const during = of('/rotating').at(-1) as Received
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).toMatchObject(
        {
          type: 'link.updated',
        },
      )
    }
    clock += 24 * 3_600_000 + 1
    await queue('link.updated')
    await round()
    const after = of('/rotating').at(-1) as Received
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(() =>
      new Webhook(endpoint.secret).verify(after.body, after.headers as Record<string, string>),
    ).toThrow()
  })
})
