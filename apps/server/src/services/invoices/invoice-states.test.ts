import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../../../test/build-test-app.ts'
import {
  createTestInvoice,
  payTestInvoice,
  readTestCredits,
  readTestTransitions,
  waitForInvoice,
} from '../../../test/invoice-test-kit.ts'
import { type PaymentDevnet, startPaymentApp, startPaymentDevnet } from '../../../test/payment-test-kit.ts'
import { refreshInvoice } from './refresh-invoice.ts'

// Each invoice state produced on the devnet by real payments (docs/api.md#invoice-states): the
// app's tracker verifies each payment on chain and its invoice worker credits what the receiver got.

let devnet: PaymentDevnet
let testApp: TestApp
const payerIndex = 3
const hour = 3_600_000

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  testApp = await startPaymentApp(devnet)
})
afterAll(async () => {
  await testApp?.close()
  await devnet?.stop()
})

/** A receiver of its own per invoice: nothing else pays it. */
function freshAddress(): `0x${string}` {
  return `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}`
}

async function payUsdc(created: Awaited<ReturnType<typeof createTestInvoice>>, amount: string) {
  return payTestInvoice(testApp, devnet, {
    invoice: created.invoice,
    linkId: created.linkId,
    payerIndex,
    fromChain: 8453,
    fromToken: created.token,
    fromAmount: parseUnits(amount, 6),
  })
}

describe('invoice states from real payments on the devnet', { timeout: 90_000 }, () => {
  it('exact: 5 USDC paid for 5 USDC is paid, with the transition stored beside its payment', async () => {
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '5',
    })
    const { route, toAmountWei } = await payUsdc(created, '5')
    expect(toAmountWei).toBe(5_000_000n)
    const invoice = await waitForInvoice(
      testApp,
      created.invoice.id,
      (row) => row.state !== 'open' && row.state !== 'processing',
    )
    expect(invoice).toMatchObject({ state: 'paid', amountPaidUnits: '5000000' })
    expect(invoice.paidAt).not.toBeNull()
    expect(await readTestCredits(testApp, created.invoice.id)).toEqual([[route.intentId, '5000000']])
    const transitions = await readTestTransitions(testApp, created.invoice.id)
    expect(transitions.at(-1)).toEqual([expect.any(String), 'paid', route.intentId])
    const answer = await testApp.app.inject({ method: 'GET', url: `/api/pay/invoices/${created.invoice.id}` })
    expect(answer.json().data).toMatchObject({ state: 'paid', amountPaid: '5', amountDue: '0' })
  })

  it('within tolerance: 9.95 of 10 with 1 % tolerance is paid; over: 1.5 of 1 without tolerance is paid_over', async () => {
    const within = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '10',
      toleranceBps: 100,
    })
    await payUsdc(within, '9.95')
    expect(
      (await waitForInvoice(testApp, within.invoice.id, (row) => row.state === 'paid')).amountPaidUnits,
    ).toBe('9950000')

    const over = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '1',
    })
    await payUsdc(over, '1.5')
    const paidOver = await waitForInvoice(testApp, over.invoice.id, (row) => row.state === 'paid_over')
    expect(paidOver.amountPaidUnits).toBe('1500000')
  })

  it('under then expired: 4 of 10 leaves it open with 4 paid; past expiresAt it is underpaid', async () => {
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '10',
    })
    const { route } = await payUsdc(created, '4')
    const partly = await waitForInvoice(
      testApp,
      created.invoice.id,
      (row) => row.amountPaidUnits === '4000000',
    )
    expect(partly.state).toBe('open')
    const page = await testApp.app.inject({ method: 'GET', url: `/api/pay/invoices/${created.invoice.id}` })
    expect(page.json().data).toMatchObject({ state: 'open', amountPaid: '4', amountDue: '6' })
    // The clock moves past expiresAt (a worker round two hours from now).
    const refresh = await refreshInvoice(testApp.database.db, created.invoice.id, Date.now() + 2 * hour)
    expect(refresh).toMatchObject({ previousState: 'open', state: 'underpaid', amountPaidUnits: 4_000_000n })
    const transitions = await readTestTransitions(testApp, created.invoice.id)
    expect(transitions).toEqual([...transitions.slice(0, -1), ['open', 'underpaid', null]])
    expect(transitions.some(([, , intentId]) => intentId === route.intentId)).toBe(false)
    expect(await readTestCredits(testApp, created.invoice.id)).toEqual([[route.intentId, '4000000']])
  })

  it('expired with nothing paid: the worker expires it by the clock alone', async () => {
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '3',
      createdAtMs: Date.now() - 2 * hour,
    })
    const invoice = await waitForInvoice(testApp, created.invoice.id, (row) => row.state !== 'open')
    expect(invoice).toMatchObject({ state: 'expired', amountPaidUnits: '0', paidAt: null })
    expect(await readTestTransitions(testApp, created.invoice.id)).toEqual([['open', 'expired', null]])
  })

  it('late: paid in full after expiresAt but within the monitoring window is paid_late', async () => {
    const created = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: freshAddress(),
      amount: '2',
      createdAtMs: Date.now() - hour - 60_000,
    })
    await waitForInvoice(testApp, created.invoice.id, (row) => row.state === 'expired')
    const { route } = await payUsdc(created, '2')
    const invoice = await waitForInvoice(testApp, created.invoice.id, (row) => row.state === 'paid_late')
    expect(invoice.amountPaidUnits).toBe('2000000')
    expect(await readTestTransitions(testApp, created.invoice.id)).toEqual(
      expect.arrayContaining([
        ['open', 'expired', null],
        [expect.any(String), 'paid_late', route.intentId],
      ]),
    )
  })
})
