import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDelivery } from '@quicklinks/runtime/delivery/create-delivery'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { baseUsdc, baseUsdt, signInTestUser, writeTestDeployment } from '../../../test/link-test-fixtures.ts'
import { insertFinalPayment, setNoticeUser } from '../../../test/notice-test-kit.ts'
import { insertTestLink } from '../../../test/payment-history-fixtures.ts'
import { listMailTo, startTestMailCatcher } from '../../../test/receipt-test-kit.ts'
import { paymentDigests } from '../../db/schema.ts'
import { createPaymentDigestWorker } from './create-payment-digest-worker.ts'

let mail: Awaited<ReturnType<typeof startTestMailCatcher>>
let testApp: TestApp

beforeAll(async () => {
  mail = await startTestMailCatcher()
  testApp = await buildTestApp({ smtpUrl: `smtp://127.0.0.1:${mail.catcher.port}` })
  writeTestDeployment(testApp)
})

afterAll(async () => {
  await testApp?.close()
  await mail?.catcher.close()
})

const at = (iso: string) => new Date(iso)

/** A digest worker of this app's database and mail, at the clock `now`. */
function digestWorker(now: () => number, delivery = testApp.app.delivery) {
  return createPaymentDigestWorker({
    db: testApp.app.db,
    delivery,
    logger: testApp.app.log,
    publicOrigin: 'https://ql.example',
    catalogue: testApp.app.routingProvider,
    now,
  })
}

/** A signed-up user with an e-mail and the digest as given, owning one Base USDC link. */
async function digestUser(paymentDigest: 'off' | 'daily') {
  const caller = await signInTestUser(testApp)
  const email = `digest-${caller.userId}@example.com`
  await setNoticeUser(testApp.app.db, caller.userId, { email, paymentDigest })
  const linkId = await insertTestLink(testApp.app.db, { userId: caller.userId, alias: 'Coffee Fund' })
  return { userId: caller.userId, email, linkId }
}

/** The digests of `day` mailed to `email`. */
function digestsOf(email: string, day: string) {
  return listMailTo(mail.outbox, email).filter((each) => each.subject.startsWith(`Your payments on ${day}:`))
}

async function digestRow(userId: string, day: string) {
  const [row] = await testApp.app.db
    .select()
    .from(paymentDigests)
    .where(and(eq(paymentDigests.userId, userId), eq(paymentDigests.day, day)))
  return row
}

describe('the daily payment digest', () => {
  it("mails an opted-in user once the day is over: the day's count, totals per token, a line per payment", async () => {
    const user = await digestUser('daily')
    const quiet = await digestUser('off')
    const db = testApp.app.db
    await insertFinalPayment(db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '12500000',
      finalAt: at('2026-03-10T09:14:00Z'),
    })
    await insertFinalPayment(db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '750000',
      finalAt: at('2026-03-10T23:59:30Z'),
    })
    await insertFinalPayment(db, {
      linkId: user.linkId,
      toToken: baseUsdt,
      amountUnits: '2000000',
      finalAt: at('2026-03-10T00:00:00Z'),
    })
    // Not the day's verified payments: the days around it, a failed one, another user's.
    await insertFinalPayment(db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '1',
      finalAt: at('2026-03-09T23:59:59Z'),
    })
    await insertFinalPayment(db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '2',
      finalAt: at('2026-03-11T00:00:00Z'),
    })
    await insertFinalPayment(db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '3',
      finalAt: at('2026-03-10T12:00:00Z'),
      status: 'failed',
    })
    await insertFinalPayment(db, {
      linkId: quiet.linkId,
      toToken: baseUsdc,
      amountUnits: '4000000',
      finalAt: at('2026-03-10T12:00:00Z'),
    })

    // Just after midnight the day may still be committing: nothing of it yet (the day before's goes).
    await digestWorker(() => Date.parse('2026-03-11T00:04:00Z')).runOnce('')
    expect(digestsOf(user.email, '2026-03-10')).toHaveLength(0)
    expect(await digestRow(user.userId, '2026-03-10')).toBeUndefined()
    expect(digestsOf(user.email, '2026-03-09')).toHaveLength(1)

    const worker = digestWorker(() => Date.parse('2026-03-11T00:06:00Z'))
    await worker.runOnce('')
    const mails = digestsOf(user.email, '2026-03-10')
    expect(mails).toHaveLength(1)
    expect(mails[0]?.subject).toBe('Your payments on 2026-03-10: 3 payments')
    const text = mails[0]?.text ?? ''
    expect(text).toContain('received 3 verified payments on 2026-03-10 (UTC)')
    expect(text).toMatch(/ {2}13\.25 USDC on \S.* \(2 payments\)/)
    expect(text).toMatch(/ {2}2 USDT on \S.* \(1 payment\)/)
    const lines = text.split('\n').filter((line) => / UTC {2}/.test(line))
    expect(lines.map((line) => line.slice(2, 11))).toEqual(['00:00 UTC', '09:14 UTC', '23:59 UTC'])
    expect(lines[1]).toContain('12.5 USDC')
    expect(lines[1]).toContain('to "Coffee Fund"')
    expect(text).toContain('https://ql.example/dashboard/payments')
    expect(mails[0]?.html).toContain('<a href="https://ql.example/dashboard/payments">')
    expect(listMailTo(mail.outbox, quiet.email)).toHaveLength(0)
    expect(await digestRow(user.userId, '2026-03-10')).toMatchObject({ state: 'sent', payments: 3 })

    // Later rounds of the same day send nothing more.
    await worker.runOnce('')
    await digestWorker(() => Date.parse('2026-03-11T20:00:00Z')).runOnce('')
    expect(listMailTo(mail.outbox, user.email)).toHaveLength(2)
    expect(digestsOf(user.email, '2026-03-10')).toHaveLength(1)
  })

  it('sends nothing for a day without payments (a skipped row), nor to a user without an address', async () => {
    const idle = await digestUser('daily')
    await insertFinalPayment(testApp.app.db, {
      linkId: idle.linkId,
      toToken: baseUsdc,
      amountUnits: '5',
      finalAt: at('2026-04-01T10:00:00Z'),
    })
    const noAddress = await digestUser('daily')
    await setNoticeUser(testApp.app.db, noAddress.userId, { email: null })
    await insertFinalPayment(testApp.app.db, {
      linkId: noAddress.linkId,
      toToken: baseUsdc,
      amountUnits: '5',
      finalAt: at('2026-04-02T10:00:00Z'),
    })

    await digestWorker(() => Date.parse('2026-04-03T06:00:00Z')).runOnce('')
    expect(listMailTo(mail.outbox, idle.email)).toHaveLength(0)
    expect(await digestRow(idle.userId, '2026-04-02')).toMatchObject({ state: 'skipped', payments: 0 })
    expect(await digestRow(noAddress.userId, '2026-04-02')).toMatchObject({ state: 'skipped', payments: 1 })
  })

  it('sends one digest when two instances race for it', async () => {
    const user = await digestUser('daily')
    await insertFinalPayment(testApp.app.db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '1000000',
      finalAt: at('2026-05-05T08:00:00Z'),
    })
    const now = () => Date.parse('2026-05-06T01:00:00Z')
    const first = digestWorker(now)
    const second = digestWorker(now)
    for (let round = 0; round < 3; round += 1) {
      await Promise.all([first.runOnce(''), second.runOnce(''), first.runOnce(''), second.runOnce('')])
    }
    const mails = listMailTo(mail.outbox, user.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]?.subject).toBe('Your payments on 2026-05-05: 1 payment')
    expect(await digestRow(user.userId, '2026-05-05')).toMatchObject({ state: 'sent', attempts: 1 })
  })

  it('retries a digest the SMTP server could not take, and sends it once it can', async () => {
    const user = await digestUser('daily')
    await insertFinalPayment(testApp.app.db, {
      linkId: user.linkId,
      toToken: baseUsdc,
      amountUnits: '1000000',
      finalAt: at('2026-06-01T08:00:00Z'),
    })
    // A port nothing listens on: the connection is refused.
    const unreachable = createDelivery(
      { smtpUrl: 'smtp://127.0.0.1:1', mailFrom: 'ql@example.com', sms: { provider: 'none' } },
      createLogger('silent'),
    )
    await digestWorker(() => Date.parse('2026-06-02T01:00:00Z'), unreachable).runOnce('')
    expect(await digestRow(user.userId, '2026-06-01')).toMatchObject({ state: 'pending', attempts: 1 })
    expect(listMailTo(mail.outbox, user.email)).toHaveLength(0)

    // Not yet due (the backoff is 2 minutes after the first try), then due.
    await digestWorker(() => Date.parse('2026-06-02T01:01:00Z')).runOnce('')
    expect(listMailTo(mail.outbox, user.email)).toHaveLength(0)
    await digestWorker(() => Date.parse('2026-06-02T01:03:00Z')).runOnce('')
    expect(listMailTo(mail.outbox, user.email)).toHaveLength(1)
    expect(await digestRow(user.userId, '2026-06-01')).toMatchObject({ state: 'sent', attempts: 2 })
  })
})
