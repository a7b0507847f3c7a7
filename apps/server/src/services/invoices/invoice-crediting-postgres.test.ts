import type { InvoiceState } from '@quicklinks/core/api/invoices'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { eq, inArray } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countWalkImbalance,
  createTestInvoiceRow,
  createTestInvoiceUser,
} from '../../../test/invoice-race-fixtures.ts'
import { migrate } from '../../db/migrate.ts'
import {
  invoicePayments,
  invoices,
  invoiceTransitions,
  type RouteIntent,
  routeIntents,
} from '../../db/schema.ts'
import { updateRouteIntent } from '../payments/route/route-intents-repository.ts'
import { type RunningWorkers, startWorkers } from '../workers/start-workers.ts'
import { createInvoiceWorker } from './create-invoice-worker.ts'

// Issue 31: "the same invoice paid at once through two instances is counted once", on the
// database production runs. Two instances' invoice workers, each with its own connection pool
// (as two app processes have), poll one PostgreSQL 15 while the payments of 150 invoices become
// verified in batches, the way the tracker writes them (in flight, success not yet final, final).
// Row locks and the invoice_payments primary key are Postgres's own here, not PGlite's single
// connection, so a lost lock shows up as a credit counted twice, a sum that misses one, or a
// state change written twice.

/** One kind of invoice, what its payments deliver, and the state those must leave it in. */
type Scenario = {
  name: string
  amountUnits: bigint
  toleranceBps: number
  /** Made 70 min ago for an hour: expired before its payments arrive. */
  isExpired: boolean
  /** Verified receiver credits of its successful payments. */
  credits: bigint[]
  /** Credits of payments that end failed (too little arrived): never counted. */
  failedCredits: bigint[]
  expected: InvoiceState
}

/** A scenario: amount and tolerance, whether it expired already, credits (success; failed), the state. */
function scenario(
  name: string,
  terms: { amountUnits: bigint; toleranceBps: number; isExpired: boolean },
  credits: bigint[],
  failedCredits: bigint[],
  expected: InvoiceState,
): Scenario {
  return { name, ...terms, credits, failedCredits, expected }
}

const usdc = 1_000_000n
const fresh = (amountUnits: bigint, toleranceBps = 0) => ({ amountUnits, toleranceBps, isExpired: false })
const expired = (amountUnits: bigint) => ({ amountUnits, toleranceBps: 0, isExpired: true })
const scenarios: Scenario[] = [
  scenario('three payments', fresh(3n * usdc), [usdc, usdc, usdc], [], 'paid'),
  scenario('over', fresh(2n * usdc, 100), [1_500_000n, 1_500_000n], [], 'paid_over'),
  scenario('within tolerance', fresh(2n * usdc, 200), [usdc, 970_000n], [], 'paid'),
  scenario('part, a failure beside it', fresh(3n * usdc), [usdc], [2n * usdc], 'open'),
  scenario('under, expired', expired(3n * usdc), [usdc], [], 'underpaid'),
  scenario('late', expired(3n * usdc), [2n * usdc, usdc], [2_500_000n], 'paid_late'),
]
const invoicesPerScenario = 25

let postgres: RunningPostgres
const clients: DatabaseClient[] = []

beforeAll(async () => {
  postgres = await startPostgres()
  // Two instances: two pools of the size the app runs with, on one server.
  for (let index = 0; index < 2; index++) {
    clients.push(await createDatabaseClient({ kind: 'postgres', url: postgres.url }))
  }
  await migrate(clients[0] as DatabaseClient)
}, 120_000)
afterAll(async () => {
  for (const client of clients) await client.close()
  await postgres?.stop()
})

/** A logger that keeps the worker's log lines (state changes, failed refreshes) for the assertions. */
function createRecordingLogger(): { logger: FastifyBaseLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) })
  return { logger, lines }
}

describe('invoice crediting from two instances on PostgreSQL', () => {
  it('credits every verified payment once and leaves every invoice in the state its records prove', async () => {
    const [first, second] = clients as [DatabaseClient, DatabaseClient]
    const db = first.db
    const { userId, linkId } = await createTestInvoiceUser(db)
    const nowMs = Date.now()

    // The invoices and their payments, submitted and not on chain yet.
    const planned: Array<{ invoiceId: string; scenario: Scenario; payments: RouteIntent[] }> = []
    for (const scenario of scenarios) {
      for (let copy = 0; copy < invoicesPerScenario; copy++) {
        const { invoice, insertPayment } = await createTestInvoiceRow(db, {
          userId,
          linkId,
          amountUnits: scenario.amountUnits,
          toleranceBps: scenario.toleranceBps,
          // An expired one was made 70 minutes ago for an hour.
          createdAtMs: scenario.isExpired ? nowMs - 70 * 60_000 : nowMs,
        })
        const payments: RouteIntent[] = []
        for (const credit of [...scenario.credits, ...scenario.failedCredits]) {
          payments.push(await insertPayment(credit))
        }
        planned.push({ invoiceId: invoice.id, scenario, payments })
      }
    }
    const allPayments = planned.flatMap((invoice) =>
      invoice.payments.map((payment, index) => ({
        payment,
        isSuccess: index < invoice.scenario.credits.length,
      })),
    )

    // Both instances' invoice workers run their loops (as startWorkers runs them in the app).
    const recorded = [createRecordingLogger(), createRecordingLogger()]
    const running: RunningWorkers[] = [first, second].map((client, index) => {
      const logger = recorded[index]?.logger as FastifyBaseLogger
      return startWorkers([createInvoiceWorker({ db: client.db, logger })], { intervalMs: 5, logger })
    })
    try {
      // The tracker's writes, a batch at a time, half through each instance's pool: mined (in
      // flight), success seen but not final, then final (success, or failed with what arrived).
      const batches = chunk(allPayments, 40)
      for (const [batchIndex, batch] of batches.entries()) {
        const client = (batchIndex % 2 === 0 ? first : second).db
        const minedAt = Date.now()
        const mined = await Promise.all(
          batch.map(({ payment }) =>
            updateRouteIntent(
              client,
              payment,
              {
                status: 'bridging',
                statusRaw: 'ongoing',
                sourceBlockNumber: 1,
                sourceBlockHash: `0x${'1'.repeat(64)}`,
              },
              { nowMs: minedAt },
            ),
          ),
        )
        await pause(15)
        const seen = await Promise.all(
          mined.map((intent, index) =>
            batch[index]?.isSuccess
              ? updateRouteIntent(
                  client,
                  intent,
                  {
                    status: 'success',
                    statusRaw: 'success',
                    destTxHash: intent.sourceTxHash,
                    toAmountWei: intent.toAmount,
                    completedAt: new Date(),
                  },
                  { nowMs: Date.now() },
                )
              : Promise.resolve(intent),
          ),
        )
        await pause(15)
        await Promise.all(
          seen.map((intent, index) =>
            updateRouteIntent(
              client,
              intent,
              batch[index]?.isSuccess
                ? { finalAt: new Date() }
                : {
                    status: 'failed',
                    statusRaw: 'failed',
                    toAmountWei: intent.toAmount,
                    completedAt: new Date(),
                    finalAt: new Date(),
                  },
              { nowMs: Date.now() },
            ),
          ),
        )
      }
      // Until every invoice shows its payments (both instances still polling), then a while longer.
      const expectedPaid = new Map(
        planned.map(({ invoiceId, scenario }) => [invoiceId, sum(scenario.credits)]),
      )
      await waitFor(async () => {
        const rows = await db.select({ id: invoices.id, paid: invoices.amountPaidUnits }).from(invoices)
        return rows.every((row) => BigInt(row.paid) === expectedPaid.get(row.id))
      }, 60_000)
      await pause(300)
    } finally {
      await Promise.all(running.map((workers) => workers.stop()))
    }

    const ids = planned.map((invoice) => invoice.invoiceId)
    const stored = new Map(
      (await db.select().from(invoices).where(inArray(invoices.id, ids))).map((row) => [row.id, row]),
    )
    const credits = await db
      .select({
        invoiceId: invoicePayments.invoiceId,
        intentId: invoicePayments.intentId,
        units: invoicePayments.amountUnits,
      })
      .from(invoicePayments)
    const transitions = await db
      .select()
      .from(invoiceTransitions)
      .where(inArray(invoiceTransitions.invoiceId, ids))
    for (const { invoiceId, scenario, payments } of planned) {
      const label = `${scenario.name} ${invoiceId}`
      // Exactly the successful payments, each once, with what the chain showed arrived.
      const successful = payments.slice(0, scenario.credits.length)
      expect(
        credits
          .filter((credit) => credit.invoiceId === invoiceId)
          .map((credit) => [credit.intentId, credit.units])
          .toSorted(),
        label,
      ).toEqual(successful.map((payment) => [payment.id, payment.toAmount]).toSorted())
      expect(stored.get(invoiceId), label).toMatchObject({
        state: scenario.expected,
        amountPaidUnits: sum(scenario.credits).toString(),
      })
      // One unbroken walk of changes from open to the final state (each change leaves the state
      // the one before entered; timestamps may tie, so the walk is checked by counting): a change
      // two instances both wrote would leave a state twice that was entered once.
      const chain = transitions.filter((transition) => transition.invoiceId === invoiceId)
      expect(countWalkImbalance(chain), label).toEqual(
        scenario.expected === 'open' ? {} : { open: 1, [scenario.expected]: -1 },
      )
      if (scenario.expected !== 'open') expect(chain.length, label).toBeGreaterThan(0)
    }
    // Every stored change was made by one of the two instances, and both took part.
    const changesBy = recorded.map(({ lines }) =>
      lines.filter((line) => line.msg === 'Invoice state changed'),
    )
    expect(changesBy.map((lines) => lines.length).reduce((total, count) => total + count, 0)).toBe(
      transitions.length,
    )
    expect(
      recorded.flatMap(({ lines }) => lines.filter((line) => line.msg !== 'Invoice state changed')),
    ).toEqual([])
    expect(
      changesBy.every((lines) => lines.length > 0),
      JSON.stringify(changesBy.map((lines) => lines.length)),
    ).toBe(true)
    // No payment of another invoice was credited to one of these.
    const intentInvoice = new Map(
      (
        await db
          .select({ id: routeIntents.id, invoiceId: routeIntents.invoiceId })
          .from(routeIntents)
          .where(eq(routeIntents.linkId, linkId))
      ).map((row) => [row.id, row.invoiceId]),
    )
    for (const credit of credits) expect(intentInvoice.get(credit.intentId)).toBe(credit.invoiceId)
  }, 120_000)
})

function chunk<Item>(items: Item[], size: number): Item[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, index * size + size),
  )
}

function sum(values: bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n)
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`)
    await pause(50)
  }
}
