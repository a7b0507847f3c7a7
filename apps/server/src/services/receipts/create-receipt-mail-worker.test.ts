import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { baseUsdc, signInTestUser, writeTestDeployment } from '../../../test/link-test-fixtures.ts'
import { insertFinalPayment, setNoticeUser } from '../../../test/notice-test-kit.ts'
import { insertTestLink } from '../../../test/payment-history-fixtures.ts'
import { listMailTo, startTestMailCatcher } from '../../../test/receipt-test-kit.ts'
import { links, receiptEmails } from '../../db/schema.ts'
import { createReceiptMailWorker } from './create-receipt-mail-worker.ts'
import { insertPayerReceiptEmail } from './receipt-emails-repository.ts'

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

describe("the payee's mail per payment and the link's notify_payments (docs/api.md#notices)", () => {
  it('mails the payee for a link with notices on, writes a skipped row and no mail for one with them off, and still sends the payer their copy', async () => {
    const db = testApp.app.db
    const owner = await signInTestUser(testApp)
    const ownerEmail = `owner-${owner.userId}@example.com`
    await setNoticeUser(db, owner.userId, { email: ownerEmail })
    const noisy = await insertTestLink(db, { userId: owner.userId, alias: 'Noisy' })
    const silent = await insertTestLink(db, { userId: owner.userId, alias: 'Silent' })
    await db.update(links).set({ notifyPayments: false }).where(eq(links.id, silent))
    const finalAt = new Date(Date.now() - 60_000)
    const heard = await insertFinalPayment(db, {
      linkId: noisy,
      toToken: baseUsdc,
      amountUnits: '12500000',
      finalAt,
    })
    const unheard = await insertFinalPayment(db, {
      linkId: silent,
      toToken: baseUsdc,
      amountUnits: '7000000',
      finalAt,
    })

    const worker = createReceiptMailWorker({
      db,
      delivery: testApp.app.delivery,
      logger: testApp.app.log,
      publicOrigin: 'https://ql.example',
      catalogue: testApp.app.routingProvider,
    })
    await worker.runOnce('')
    await worker.runOnce('')

    const mails = listMailTo(mail.outbox, ownerEmail)
    expect(mails.map((each) => each.subject)).toEqual(['Payment received: 12.5 USDC'])
    expect(mails[0]?.text).toContain(`/pay/receipt/${heard}`)
    const rowsOf = (intentId: string) =>
      db.select().from(receiptEmails).where(eq(receiptEmails.intentId, intentId))
    expect((await rowsOf(heard)).map((row) => [row.role, row.state])).toEqual([['payee', 'sent']])
    expect((await rowsOf(unheard)).map((row) => [row.role, row.state, row.email, row.lastError])).toEqual([
      ['payee', 'skipped', null, 'payment notices off for the link'],
    ])

    // Switching notices back on later does not mail a payment already decided.
    await db.update(links).set({ notifyPayments: true }).where(eq(links.id, silent))
    // The payer's copy of the silent link's payment is theirs to ask for, whatever the payee's switch.
    const payerEmail = `payer-${owner.userId}@example.com`
    const queued = await insertPayerReceiptEmail(
      db,
      { intentId: unheard, email: payerEmail, requestedBy: '198.51.100.1', nowMs: Date.now() },
      { perIntent: 3, perAddressPerDay: 10 },
    )
    expect(queued).toBe(true)
    await worker.runOnce('')
    expect(listMailTo(mail.outbox, payerEmail).map((each) => each.subject)).toEqual([
      'Your payment receipt: 7 USDC',
    ])
    expect(listMailTo(mail.outbox, ownerEmail)).toHaveLength(1)
  })
})
