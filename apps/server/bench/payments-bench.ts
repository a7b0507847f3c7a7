/**
 * Payment history benchmark (issue 31), run by `npm run bench` (or `node --import tsx
 * apps/server/bench/payments-bench.ts`). On an in-memory PGlite, then on a throw-away Postgres
 * (initdb + pg_ctl, as the tests start one), each migrated: 100,000 payments of one payee spread
 * over ten links (plus 2,000 of another payee), then, through the real app (app.inject, signed in
 * with a session cookie):
 *   - GET /api/payments (the first page: 50 payments and the totals): p95 ≤ 50 ms;
 *   - GET /api/payments?linkId&state=success and ?chainId&from={day} (filtered pages): p95 ≤ 50 ms;
 *   - GET /api/payments?cursor (a page deep in the history), measured, no target;
 *   - GET /api/payments/export.csv of all 100,000 over real HTTP: ≤ 5 s.
 * The payments span 28 hours (one a second), so the totals read whole days from
 * payment_daily_totals; a `from`/`to` with a time of day also sums that cut day's payments
 * themselves (measured, no target). The tables are ANALYZEd after the load, as autovacuum would have. PAYMENTS_BENCH_ROWS overrides
 * the 100,000 and PAYMENTS_BENCH_SAMPLES the 200 requests per row. Prints met/MISSED per target;
 * exits 1 when one is missed.
 */
import { availableParallelism, loadavg } from 'node:os'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.ts'
import { migrate } from '../src/db/migrate.ts'
import { createSession } from '../src/services/sessions/create-session.ts'
import { getOrCreateUser } from '../src/services/users/get-or-create-user.ts'
import { createTestConfig } from '../test/create-test-config.ts'
import { insertTestLink, insertTestPaymentsBySql } from '../test/payment-history-fixtures.ts'
import { type LatencyRow, printLatencyTable, summarizeLatencies } from './lib/latency-table.ts'

const paymentCount = Number(process.env.PAYMENTS_BENCH_ROWS ?? 100_000)
const samples = Number(process.env.PAYMENTS_BENCH_SAMPLES ?? 200)
const linkCount = 10
const pageTargetMs = 50
const csvTargetMs = 5_000

type Verdict = { label: string; isMet: boolean }

/**
 * CPU milliseconds this process spent per request: on PGlite that is the whole request (the
 * database runs in-process), a number a busy machine's wall clock does not blur.
 */
const cpuPerRequest = new Map<string, number>()

/** `samples` timed GETs of `url` (after a warm-up of 20), failures counted apart. */
async function timeRequests(
  app: FastifyInstance,
  url: string,
  cookie: string,
  operation: string,
): Promise<LatencyRow> {
  const latencies: number[] = []
  let failed = 0
  let cpuStart = process.cpuUsage()
  for (let index = 0; index < samples + 20; index++) {
    if (index === 20) cpuStart = process.cpuUsage()
    const started = performance.now()
    const response = await app.inject({ method: 'GET', url, headers: { cookie } })
    const elapsed = performance.now() - started
    if (response.statusCode !== 200) {
      failed += 1
      if (failed === 1) console.error(`${operation}: ${response.statusCode} ${response.body.slice(0, 300)}`)
    } else if (index >= 20) latencies.push(elapsed)
  }
  const cpu = process.cpuUsage(cpuStart)
  cpuPerRequest.set(operation, (cpu.user + cpu.system) / 1000 / samples)
  return summarizeLatencies(operation, latencies, failed)
}

/** Loads the payments, then measures the pages and the export on `database`. */
async function benchDatabase(name: string, database: DatabaseClient): Promise<Verdict[]> {
  await migrate(database)
  const db = database.db
  const user = await getOrCreateUser(db, { address: '0x00000000000000000000000000000000000b3c01' })
  const other = await getOrCreateUser(db, { address: '0x00000000000000000000000000000000000b3c02' })
  const linkIds: string[] = []
  for (let index = 0; index < linkCount; index++) {
    linkIds.push(await insertTestLink(db, { userId: user.id, alias: `Bench shop ${index}` }))
  }
  const otherLink = await insertTestLink(db, { userId: other.id, alias: 'Another payee' })
  const loadStarted = performance.now()
  await insertTestPaymentsBySql(db, { count: paymentCount, linkIds })
  await insertTestPaymentsBySql(db, { from: paymentCount, count: 2_000, linkIds: [otherLink] })
  await db.execute(sql`analyze`)
  console.log(
    `${name}: ${paymentCount} payments loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  )

  const { token } = await createSession(db, { userId: user.id })
  const cookie = `ql_session=${token}`
  const config = createTestConfig({ rateLimitMax: 1_000_000_000 })
  const app = await buildApp(config, { database, logger: createLogger('silent') })
  try {
    const deep = await app.inject({ method: 'GET', url: '/api/payments?limit=200', headers: { cookie } })
    const cursor = (deep.json() as { nextCursor: string }).nextCursor
    const rows = [
      await timeRequests(app, '/api/payments', cookie, 'first page'),
      await timeRequests(
        app,
        `/api/payments?linkId=${linkIds[3]}&state=success`,
        cookie,
        'filtered page (link, state)',
      ),
      await timeRequests(
        app,
        '/api/payments?chainId=8453&from=2026-01-02',
        cookie,
        'filtered page (chain, from day)',
      ),
      // No target: a time of day cuts a day, whose payments the totals then sum one by one.
      await timeRequests(
        app,
        '/api/payments?from=2026-01-01T06:00:00Z',
        cookie,
        'filtered page (from a time)',
      ),
      await timeRequests(app, `/api/payments?cursor=${cursor}`, cookie, 'next page (cursor)'),
    ]
    printLatencyTable(`GET /api/payments on ${name}, ${paymentCount} payments`, rows)

    const origin = await app.listen({ port: 0, host: '127.0.0.1' })
    const started = performance.now()
    const csvCpuStart = process.cpuUsage()
    const response = await fetch(`${origin}/api/payments/export.csv`, { headers: { cookie } })
    let bytes = 0
    let lines = 0
    for await (const chunk of response.body ?? []) {
      bytes += chunk.length
      for (const byte of chunk) if (byte === 10) lines += 1
    }
    const csvMs = performance.now() - started
    const csvCpu = process.cpuUsage(csvCpuStart)
    const csvMet = response.status === 200 && lines === paymentCount + 1 && csvMs <= csvTargetMs
    const verdicts: Verdict[] = rows.slice(0, 3).map((row) => {
      const isMet = row.failed === 0 && row.p95 <= pageTargetMs
      console.log(
        `${row.operation}: p95 ${row.p95.toFixed(1)} ms (${(cpuPerRequest.get(row.operation) ?? 0).toFixed(1)} ms CPU a request in this process); target ≤ ${pageTargetMs} ms: ${isMet ? 'met' : 'MISSED'}`,
      )
      return { label: `${name} ${row.operation}`, isMet }
    })
    console.log(`load average (1 min) ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`)
    console.log(
      `CSV export: ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${(csvMs / 1000).toFixed(2)} s` +
        ` (status ${response.status}; ${((csvCpu.user + csvCpu.system) / 1e6).toFixed(2)} s CPU in this process); target ≤ ${csvTargetMs / 1000} s: ${csvMet ? 'met' : 'MISSED'}`,
    )
    return [...verdicts, { label: `${name} CSV export`, isMet: csvMet }]
  } finally {
    await app.close()
  }
}

let postgres: RunningPostgres | undefined
const verdicts: Verdict[] = []
try {
  const pglite = await createDatabaseClient({ kind: 'pglite' })
  try {
    verdicts.push(...(await benchDatabase('PGlite', pglite)))
  } finally {
    await pglite.close()
  }
  postgres = await startPostgres()
  const pool = await createDatabaseClient({ kind: 'postgres', url: postgres.url })
  try {
    verdicts.push(...(await benchDatabase('Postgres', pool)))
  } finally {
    await pool.close()
  }
} finally {
  await postgres?.stop()
}
const missed = verdicts.filter((verdict) => !verdict.isMet)
if (missed.length > 0) {
  console.error(`\n✖ Missed: ${missed.map((verdict) => verdict.label).join(', ')}`)
  process.exit(1)
}
console.log('\n✓ Payment history targets met')
