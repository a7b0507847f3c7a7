/**
 * Webhook benchmark (issue 32), run by `npm run bench` (or `node --import tsx
 * apps/server/bench/webhooks-bench.ts`), with a receiver on loopback that answers 204 at once:
 *   - drain: 10,000 events queued at once (one commit, as a burst of payments would leave them),
 *     delivered by one app instance (its workers, woken by the commit's NOTIFY): all delivered in
 *     ≤ 60 s, on an in-memory PGlite and on a throw-away Postgres;
 *   - latency: payments on the devnet (same chain, Base USDC to a Base USDC link), from the moment
 *     the tracker verified one (the event's `timestamp`, written in the same transaction) to its
 *     `payment.succeeded` arriving at the receiver: p95 ≤ 500 ms.
 * WEBHOOKS_BENCH_EVENTS overrides the 10,000 and WEBHOOKS_BENCH_PAYMENTS the 20 payments. Prints
 * met/MISSED per target; exits 1 when one is missed.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { eq, sql } from 'drizzle-orm'
import { parseUnits } from 'viem'
import { buildApp } from '../src/app.ts'
import { migrate } from '../src/db/migrate.ts'
import { links, users } from '../src/db/schema.ts'
import { createWebhookEndpoint } from '../src/services/webhooks/manage-webhook-endpoints.ts'
import { webhookDueChannel } from '../src/services/webhooks/webhook-outbox.ts'
import { createTestConfig } from '../test/create-test-config.ts'
import { sendTestRoute } from '../test/invoice-test-kit.ts'
import {
  buildTestRoute,
  createTestLink,
  getDevnetRelayerPrivateKey,
  postJson,
  startPaymentDevnet,
} from '../test/payment-test-kit.ts'

const eventCount = Number(process.env.WEBHOOKS_BENCH_EVENTS ?? 10_000)
const paymentCount = Number(process.env.WEBHOOKS_BENCH_PAYMENTS ?? 20)
const drainTargetMs = 60_000
const latencyTargetMs = 500

type Verdict = { label: string; isMet: boolean }
const verdicts: Verdict[] = []

/** A receiver that answers 204 at once and tells `onBody` each body and when it came. */
async function startReceiver(
  onBody: (body: string, at: number) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      onBody(Buffer.concat(chunks).toString(), Date.now())
      response.writeHead(204)
      response.end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server }
}

async function benchDrain(label: string, database: DatabaseClient): Promise<void> {
  let received = 0
  const receiver = await startReceiver(() => {
    received += 1
  })
  const app = await buildApp(createTestConfig({ devMode: true, workerIntervalMs: 1_000 }), {
    database,
    logger: createLogger('silent'),
    startWorkers: true,
  })
  await app.ready()
  const [user] = await database.db
    .insert(users)
    .values({ address: `0x${'b'.repeat(40)}` })
    .returning()
  const endpoint = await createWebhookEndpoint(database.db, {
    userId: user?.id as string,
    url: receiver.url,
    events: ['payment.succeeded'],
    isDevMode: true,
  })
  const body = JSON.stringify({ type: 'payment.succeeded', timestamp: new Date().toISOString(), data: {} })
  const started = performance.now()
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO webhook_events (id, user_id, type, body)
      SELECT 'msg_bench' || n, ${endpoint.userId}, 'payment.succeeded', ${body} FROM generate_series(1, ${eventCount}) n`)
    await tx.execute(sql`
      INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
      SELECT 'msg_bench' || n, ${endpoint.id}, now() FROM generate_series(1, ${eventCount}) n`)
    await tx.execute(sql`select pg_notify(${webhookDueChannel}, '')`)
  })
  const queuedMs = performance.now() - started
  for (;;) {
    const [row] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint.id} and state <> 'succeeded'`,
      )
    ).rows
    if ((row?.n ?? 1) === 0 || performance.now() - started > drainTargetMs * 3) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const drainMs = performance.now() - started
  await app.close()
  receiver.server.closeAllConnections()
  receiver.server.close()
  const isMet = drainMs <= drainTargetMs && received >= eventCount
  console.log(
    `${label}: ${eventCount} events queued in ${queuedMs.toFixed(0)} ms, ${received} delivered in ${(drainMs / 1000).toFixed(1)} s ` +
      `(${((received / drainMs) * 1000).toFixed(0)}/s); target ≤ ${drainTargetMs / 1000} s: ${isMet ? 'met' : 'MISSED'}`,
  )
  verdicts.push({ label: `${label} drain`, isMet })
}

/** A migrated in-memory PGlite (the tests' template needs Vitest; a bench runs without it). */
async function openPglite(): Promise<DatabaseClient> {
  const database = await createDatabaseClient({ kind: 'pglite' })
  await migrate(database)
  return database
}

async function benchLatency(): Promise<void> {
  const devnet = await startPaymentDevnet()
  const database = await openPglite()
  // As the payment tests run it (startPaymentApp): dev mode on the devnet, workers every 100 ms.
  const app = await buildApp(
    createTestConfig({
      devMode: true,
      devnetDeploymentFile: devnet.deploymentFile,
      relayerPrivateKey: getDevnetRelayerPrivateKey(),
      workerIntervalMs: 100,
    }),
    { database, logger: createLogger('silent'), startWorkers: true },
  )
  await app.ready()
  const testApp = {
    app,
    database,
    close: async () => {
      await app.close()
      await database.close()
    },
  }
  const latencies: number[] = []
  const pending = new Map<string, (latency: number) => void>()
  const receiver = await startReceiver((body, at) => {
    const event = JSON.parse(body) as { type: string; timestamp: string; data: { intentId?: string } }
    if (event.type !== 'payment.succeeded' || event.data.intentId === undefined) return
    pending.get(event.data.intentId)?.(at - Date.parse(event.timestamp))
  })
  try {
    const receiverAccount = devnet.account(2).address
    const payer = devnet.account(1)
    const token = devnet.token(8453, 'USDC')
    const link = await createTestLink(testApp.database.db, {
      owner: receiverAccount,
      receiver: receiverAccount,
      chainId: 8453,
      token,
      symbol: 'USDC',
    })
    const [owner] = await testApp.database.db
      .select({ userId: links.userId })
      .from(links)
      .where(eq(links.id, link.id))
    await createWebhookEndpoint(testApp.database.db, {
      userId: owner?.userId as string,
      url: receiver.url,
      events: ['payment.succeeded'],
      isDevMode: true,
    })
    for (let index = 0; index < paymentCount; index += 1) {
      const built = await buildTestRoute(testApp.app, {
        fromChain: 8453,
        toChain: '8453',
        fromToken: token,
        toToken: token,
        fromAmount: parseUnits('1', 6).toString(),
        fromAddress: payer.address,
        toAddress: receiverAccount,
        linkId: link.id,
      })
      const arrived = new Promise<number>((resolve) => pending.set(built.intentId, resolve))
      const hash = await sendTestRoute(devnet, 8453, 1, built, token)
      await postJson(testApp.app, `/api/route-intent/${built.intentId}/receipt`, { txHash: hash })
      latencies.push(await arrived)
    }
  } finally {
    await testApp.close()
    await devnet.stop()
    receiver.server.closeAllConnections()
    receiver.server.close()
  }
  latencies.sort((a, b) => a - b)
  const at = (quantile: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(quantile * latencies.length) - 1)] ?? 0
  const p95 = at(0.95)
  const isMet = p95 <= latencyTargetMs
  console.log(
    `verified → received (${latencies.length} devnet payments): p50 ${at(0.5)} ms, p95 ${p95} ms, max ${latencies.at(-1)} ms; ` +
      `target p95 ≤ ${latencyTargetMs} ms: ${isMet ? 'met' : 'MISSED'}`,
  )
  verdicts.push({ label: 'verified → received', isMet })
}

console.log(
  `Webhooks bench on ${availableParallelism()} cores, load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
)
const pglite = await openPglite()
await benchDrain('PGlite', pglite)
await pglite.close()
let postgres: RunningPostgres | undefined
try {
  postgres = await startPostgres()
  const database = await createDatabaseClient({ kind: 'postgres', url: postgres.url })
  await migrate(database)
  await benchDrain('Postgres', database)
  await database.close()
} finally {
  await postgres?.stop()
}
await benchLatency()
const missed = verdicts.filter((verdict) => !verdict.isMet)
console.log(
  missed.length === 0
    ? 'All webhook targets met'
    : `MISSED: ${missed.map((verdict) => verdict.label).join(', ')}`,
)
process.exit(missed.length === 0 ? 0 : 1)
