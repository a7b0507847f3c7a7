import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { createWorkerRounds } from '../../../test/create-worker-rounds.ts'
import { baseUsdc, signInTestUser } from '../../../test/link-test-fixtures.ts'
import { insertFinalPayment, setNoticeUser } from '../../../test/notice-test-kit.ts'
import { insertTestLink } from '../../../test/payment-history-fixtures.ts'
import { listMailTo, startTestMailCatcher } from '../../../test/receipt-test-kit.ts'
import { paymentDigests } from '../../db/schema.ts'

// Two app instances on one database, each running its workers (the digest worker among them) on
// a clock just after 2026-07-08 ended.
const now = () => Date.parse('2026-07-09T03:00:00Z')
let mail: Awaited<ReturnType<typeof startTestMailCatcher>>
let first: TestApp
let second: TestApp
const firstRounds = createWorkerRounds()
const secondRounds = createWorkerRounds()

beforeAll(async () => {
  mail = await startTestMailCatcher()
  const overrides = { smtpUrl: `smtp://127.0.0.1:${mail.catcher.port}`, workerIntervalMs: 50 }
  first = await buildTestApp(overrides, {
    startWorkers: true,
    workerNow: now,
    onWorkerRound: firstRounds.onWorkerRound,
  })
  second = await buildTestApp(overrides, {
    database: first.database,
    startWorkers: true,
    workerNow: now,
    onWorkerRound: secondRounds.onWorkerRound,
  })
})

/** The digests mailed to `email` (the receipt mailer runs too and may mail the payee as well). */
const digestsTo = (email: string) =>
  listMailTo(mail.outbox, email).filter((each) => each.subject.startsWith('Your payments on '))

afterAll(async () => {
  await second?.app.close()
  await first?.close()
  await mail?.catcher.close()
})

describe('the daily digest with two instances', () => {
  it('each opted-in user gets one digest of the day, whichever instance sends it', async () => {
    const db = first.app.db
    const owners: { userId: string; email: string }[] = []
    for (let index = 0; index < 6; index += 1) {
      const caller = await signInTestUser(first)
      const email = `instances-${index}-${caller.userId}@example.com`
      // Opted in only once the day's payments are written, so no round sees the day half-written.
      await setNoticeUser(db, caller.userId, { email })
      const linkId = await insertTestLink(db, { userId: caller.userId, alias: `Shop ${index}` })
      for (let payment = 0; payment <= index % 3; payment += 1) {
        await insertFinalPayment(db, {
          linkId,
          toToken: baseUsdc,
          amountUnits: '1000000',
          finalAt: new Date(Date.parse('2026-07-08T10:00:00Z') + payment * 60_000),
        })
      }
      owners.push({ userId: caller.userId, email })
    }
    for (const owner of owners) await setNoticeUser(db, owner.userId, { paymentDigest: 'daily' })

    await vi.waitFor(
      () => {
        for (const owner of owners) expect(digestsTo(owner.email)).toHaveLength(1)
      },
      { timeout: 20_000 },
    )
    // Both instances have run several more rounds since: still one each.
    await firstRounds.settle('payment-digest', 3)
    await secondRounds.settle('payment-digest', 3)
    for (const [index, owner] of owners.entries()) {
      const mails = digestsTo(owner.email)
      expect(mails).toHaveLength(1)
      const count = (index % 3) + 1
      expect(mails[0]?.subject).toBe(
        `Your payments on 2026-07-08: ${count} ${count === 1 ? 'payment' : 'payments'}`,
      )
      const [row] = await db.select().from(paymentDigests).where(eq(paymentDigests.userId, owner.userId))
      expect(row).toMatchObject({ day: '2026-07-08', state: 'sent', payments: count, attempts: 1 })
    }
  })
})
