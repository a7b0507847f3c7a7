import { eq } from 'drizzle-orm'
import { erc20Abi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../../../test/build-test-app.ts'
import {
  createTestInvoice,
  payTestInvoice,
  readTestCredits,
  readTestTransitions,
  sendTestRoute,
  waitForInvoice,
} from '../../../test/invoice-test-kit.ts'
import {
  buildTestRoute,
  type PaymentDevnet,
  postJson,
  startPaymentApp,
  startPaymentDevnet,
  waitForFinalRecord,
} from '../../../test/payment-test-kit.ts'
import { invoices } from '../../db/schema.ts'
import { createInvoiceWorker } from './create-invoice-worker.ts'
import { refreshInvoice } from './refresh-invoice.ts'

// Several payments adding up, payers who lie, and workers racing: an invoice only ever counts what
// the chain shows its receiver got, once per payment.

let devnet: PaymentDevnet
let testApp: TestApp

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  testApp = await startPaymentApp(devnet)
})
afterAll(async () => {
  await testApp?.close()
  await devnet?.stop()
})

function freshAddress(): `0x${string}` {
  return `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}`
}

describe('invoice payments on the devnet', { timeout: 120_000 }, () => {
  it('two payers on two chains add up: a Base transfer and an Arbitrum → Base route pay it together', async () => {
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '10',
      toleranceBps: 2000,
    })
    const first = await payTestInvoice(testApp, devnet, {
      invoice: created.invoice,
      linkId: created.linkId,
      payerIndex: 4,
      fromChain: 8453,
      fromToken: created.token,
      fromAmount: parseUnits('4', 6),
    })
    const partly = await waitForInvoice(
      testApp,
      created.invoice.id,
      (row) => row.amountPaidUnits === '4000000',
    )
    expect(partly.state).toBe('open')
    const second = await payTestInvoice(testApp, devnet, {
      invoice: created.invoice,
      linkId: created.linkId,
      payerIndex: 5,
      fromChain: 42161,
      fromToken: devnet.token(42161, 'USDC'),
      fromAmount: parseUnits('6.5', 6),
    })
    expect(second.route.route.estimate.actions.map((action) => action.type)).toContain('bridge')
    const total = first.toAmountWei + second.toAmountWei
    const invoice = await waitForInvoice(
      testApp,
      created.invoice.id,
      (row) => BigInt(row.amountPaidUnits) === total,
    )
    expect(total).toBeGreaterThanOrEqual(8_000_000n)
    expect(invoice.state).toBe(total > 12_000_000n ? 'paid_over' : 'paid')
    // What the receiver holds is exactly what the invoice counts.
    expect(
      await devnet.balanceOf(8453, created.token, created.invoice.receiverAddress as `0x${string}`),
    ).toBe(total)
    expect(
      new Set((await readTestCredits(testApp, created.invoice.id)).map(([intentId]) => intentId)),
    ).toEqual(new Set([first.route.intentId, second.route.intentId]))
  })

  it('a lying payer moves it by what was really delivered only: another payment’s hash counts nothing, 1 unit counts 1 unit', async () => {
    const payerIndex = 6
    const payer = devnet.account(payerIndex).address
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '10',
    })
    const route = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: created.token,
      toToken: created.token,
      fromAmount: parseUnits('10', 6).toString(),
      fromAddress: payer,
      toAddress: created.invoice.receiverAddress,
      linkId: created.linkId,
      invoiceId: created.invoice.id,
    })
    // A payment of 10 USDC to someone else, its hash posted as this invoice's payment.
    const elsewhere = await devnet.wallet(8453, payerIndex).writeContract({
      address: created.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [freshAddress(), parseUnits('10', 6)],
    })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash: elsewhere })
    await postJson(testApp.app, `/api/route-intent/${route.intentId}/receipt`, { txHash: elsewhere })
    expect((await waitForFinalRecord(testApp.app, payer, route.intentId)).status).toBe('failed')

    // An honest route of 1 unit for the same invoice.
    const tiny = await payTestInvoice(testApp, devnet, {
      invoice: created.invoice,
      linkId: created.linkId,
      payerIndex,
      fromChain: 8453,
      fromToken: created.token,
      fromAmount: 1n,
    })
    expect(tiny.toAmountWei).toBe(1n)
    const invoice = await waitForInvoice(testApp, created.invoice.id, (row) => row.amountPaidUnits !== '0')
    expect(invoice).toMatchObject({ state: 'open', amountPaidUnits: '1' })
    // More rounds change nothing: the lie is never credited.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const [after] = await testApp.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, created.invoice.id))
    expect(after).toMatchObject({ state: 'open', amountPaidUnits: '1' })
    expect(await readTestCredits(testApp, created.invoice.id)).toEqual([[tiny.route.intentId, '1']])
    const answer = await testApp.app.inject({ method: 'GET', url: `/api/pay/invoices/${created.invoice.id}` })
    expect(answer.json().data).toMatchObject({ amountPaid: '0.000001', amountDue: '9.999999' })
  })

  it('the same payment is credited once when several workers race on one database', async () => {
    const payerIndex = 7
    const payer = devnet.account(payerIndex).address
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '3',
    })
    const route = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: created.token,
      toToken: created.token,
      fromAmount: parseUnits('3', 6).toString(),
      fromAddress: payer,
      toAddress: created.invoice.receiverAddress,
      linkId: created.linkId,
      invoiceId: created.invoice.id,
    })
    const hash = await sendTestRoute(devnet, 8453, payerIndex, route, created.token)
    // Two more workers (as two more instances would run) and direct refreshes, beside the app's own,
    // all running while the payment becomes final.
    const workers = [1, 2].map(() =>
      createInvoiceWorker({ db: testApp.database.db, logger: testApp.app.log }),
    )
    let isRacing = true
    const pause = () => new Promise((resolve) => setTimeout(resolve, 10))
    const racers = [
      ...workers.map(async (worker) => {
        while (isRacing) {
          await worker.runOnce('')
          await pause()
        }
      }),
      (async () => {
        while (isRacing) {
          await refreshInvoice(testApp.database.db, created.invoice.id, Date.now())
          await pause()
        }
      })(),
    ]
    await postJson(testApp.app, `/api/route-intent/${route.intentId}/receipt`, { txHash: hash })
    expect((await waitForFinalRecord(testApp.app, payer, route.intentId)).status).toBe('success')
    await waitForInvoice(testApp, created.invoice.id, (row) => row.state === 'paid')
    await new Promise((resolve) => setTimeout(resolve, 300))
    isRacing = false
    await Promise.all(racers)

    const [invoice] = await testApp.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, created.invoice.id))
    expect(invoice).toMatchObject({ state: 'paid', amountPaidUnits: '3000000' })
    expect(await readTestCredits(testApp, created.invoice.id)).toEqual([[route.intentId, '3000000']])
    const transitions = await readTestTransitions(testApp, created.invoice.id)
    expect(transitions.filter(([, to]) => to === 'paid')).toEqual([
      [expect.any(String), 'paid', route.intentId],
    ])
  })
})
