import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningEntryPoint, startEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { eq, sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../src/db/migrate.ts'
import { users, webhookDeliveries } from '../src/db/schema.ts'
import { createWebhookEndpoint } from '../src/services/webhooks/manage-webhook-endpoints.ts'
import { webhookLeaseMs } from '../src/services/webhooks/webhook-deliveries-repository.ts'
import { writeWebhookEvent } from '../src/services/webhooks/webhook-outbox.ts'

/**
 * The outbox as a deployment runs it: real app instances (test/webhook-app-process.ts) on one
 * real Postgres, a receiver on loopback verifying every request with `standardwebhooks`. An
 * instance SIGKILLed with deliveries queued and in flight loses none after a restart; two
 * instances racing on 1,000 events deliver each exactly once.
 */
type Received = { id: string; body: string; headers: IncomingHttpHeaders }

const processScript = join(import.meta.dirname, 'webhook-app-process.ts')
let postgres: RunningPostgres
let database: DatabaseClient
let server: Server
let origin: string
const received: Received[] = []
/** What the receiver does with a request: answer now, or hold it (in flight) until told. */
let mode: 'answer' | 'hold' = 'answer'
const held: ServerResponse[] = []
const instances: RunningEntryPoint[] = []

beforeAll(async () => {
  postgres = await startPostgres()
  database = await createDatabaseClient({ kind: 'postgres', url: postgres.url })
  await migrate(database)
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        id: String(request.headers['webhook-id']),
        body: Buffer.concat(chunks).toString(),
        headers: request.headers,
      })
      if (mode === 'hold') {
        held.push(response)
        return
      }
      response.writeHead(200)
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 120_000)
afterAll(async () => {
  for (const instance of instances) instance.child.kill('SIGKILL')
  server?.closeAllConnections()
  await new Promise<void>((resolve) => server?.close(() => resolve()))
  await database?.close()
  await postgres?.stop()
})

/** An app instance; `clockOffsetMs` sets its workers' clock ahead (WORKER_CLOCK_OFFSET_MS). */
async function startInstance(clockOffsetMs = 0): Promise<RunningEntryPoint> {
  const instance = startEntryPoint(processScript, {
    DATABASE_URL: postgres.url,
    NODE_ENV: 'test',
    WORKER_CLOCK_OFFSET_MS: String(clockOffsetMs),
  })
  instances.push(instance)
  await instance.waitForOutput(/(ready)/)
  return instance
}

/** A user with one endpoint at `path` for link.created; answers its id and secret. */
async function addEndpoint(path: string): Promise<{ id: string; userId: string; secret: string }> {
  const [user] = await database.db
    .insert(users)
    .values({ address: `0x${(Date.now() * 1000 + received.length).toString(16).padStart(40, '0')}` })
    .returning()
  const endpoint = await createWebhookEndpoint(database.db, {
    userId: user?.id as string,
    url: `${origin}${path}`,
    events: ['link.created'],
    isDevMode: true,
  })
  return { id: endpoint.id, userId: endpoint.userId, secret: endpoint.secret }
}

async function queueEvents(userId: string, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let index = 0; index < count; index += 1) {
    const { eventId } = await database.db.transaction((tx) =>
      writeWebhookEvent(tx, { userId, type: 'link.created', data: { id: `link-${index}` }, now: new Date() }),
    )
    ids.push(eventId)
  }
  return ids
}

async function countStates(endpointId: string): Promise<Record<string, number>> {
  const rows = await database.db
    .select({ state: webhookDeliveries.state, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .groupBy(webhookDeliveries.state)
  return Object.fromEntries(rows.map((row) => [row.state, row.n]))
}

describe('the webhook outbox on Postgres', { timeout: 180_000 }, () => {
  it('loses nothing when the app is SIGKILLed with 200 deliveries queued and 20 in flight', async () => {
    const endpoint = await addEndpoint('/crash')
    const ids = await queueEvents(endpoint.userId, 220)
    mode = 'hold'
    const first = await startInstance()
    await expect.poll(() => held.length, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(20)
    first.child.kill('SIGKILL')
    await first.exited
    const before = await countStates(endpoint.id)
    expect(before.pending).toBe(220)
    for (const response of held.splice(0)) response.destroy()
    mode = 'answer'

    // The tries in flight at the kill are claimed again once their lease (20 s) runs out: the new
    // instance's clock is that far ahead rather than the test waiting it out.
    await startInstance(webhookLeaseMs)
    await expect
      .poll(() => countStates(endpoint.id), { timeout: 90_000, interval: 500 })
      .toEqual({ succeeded: 220 })
    const byId = new Map<string, Received[]>()
    for (const each of received) byId.set(each.id, [...(byId.get(each.id) ?? []), each])
    for (const id of ids) {
      const tries = byId.get(id) ?? []
      expect(tries.length, id).toBeGreaterThanOrEqual(1)
      // A repeat is the same event: same id, same body, each verifiable.
      for (const each of tries) {
        expect(each.body).toBe(tries[0]?.body)
        expect(
          new Webhook(endpoint.secret).verify(each.body, each.headers as Record<string, string>),
        ).toMatchObject({
          type: 'link.created',
        })
      }
    }
    expect([...byId.values()].filter((tries) => tries.length > 1).length).toBeGreaterThanOrEqual(20)
    for (const instance of instances.splice(0)) {
      instance.child.kill('SIGKILL')
      await instance.exited
    }
  })

  it('delivers each of 1,000 events exactly once with two instances racing', async () => {
    received.length = 0
    const endpoint = await addEndpoint('/race')
    await Promise.all([startInstance(), startInstance()])
    const ids = await queueEvents(endpoint.userId, 1_000)
    await expect
      .poll(() => countStates(endpoint.id), { timeout: 120_000, interval: 500 })
      .toEqual({ succeeded: 1_000 })
    const counts = new Map<string, number>()
    for (const each of received) counts.set(each.id, (counts.get(each.id) ?? 0) + 1)
    expect(counts.size).toBe(1_000)
    expect([...counts.values()].every((count) => count === 1)).toBe(true)
    expect(new Set(ids)).toEqual(new Set(counts.keys()))
  })
})
