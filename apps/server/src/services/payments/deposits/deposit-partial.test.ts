import { eq } from 'drizzle-orm'
import { parseUnits } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import {
  createDepositLink,
  createTestDeposit,
  readTestDeposit,
  sendTokenTransfer,
  waitForDepositTransfers,
} from '../../../../test/deposit-test-kit.ts'
import { createTestInvoice, waitForInvoice } from '../../../../test/invoice-test-kit.ts'
import { usePaymentScene } from '../../../../test/payment-scene.ts'
import { waitForFinalRecord } from '../../../../test/payment-test-kit.ts'
import { links, routeIntents } from '../../../db/schema.ts'

// Short transfers (docs/decisions/0032): a fixed-amount link is paid once, in full. A transfer of
// less waits for others that add up (then they go as one payment), and is refunded at expiry if
// none come; an invoice takes each transfer as a payment and adds them up itself.

/** The workers' clock runs this far ahead of the wall clock (the last test moves it past expiry). */
let clockOffsetMs = 0
const scene = usePaymentScene({}, { workerNow: () => Date.now() + clockOffsetMs })
const chainId = 8453
const receiverIndex = 2
const payers = { first: 4, second: 5, invoice: 6, short: 7 } as const

const receiver = () => scene.devnet.account(receiverIndex).address
const usdc = () => scene.devnet.token(chainId, 'USDC')
const receiverUsdc = () => scene.devnet.balanceOf(chainId, usdc(), receiver())

async function createTenUsdcLink() {
  return createDepositLink(scene.testApp.database.db, {
    receiver: receiver(),
    chainId,
    token: usdc(),
    symbol: 'USDC',
    amount: '10',
  })
}

/** Reads the deposit until its transfers all wait with a note (the watcher decided they are short). */
async function waitForShort(depositId: string, count: number) {
  return vi.waitFor(
    async () => {
      const deposit = await readTestDeposit(scene.testApp.app, depositId)
      const isShort =
        deposit.transfers.length === count &&
        deposit.transfers.every((transfer) => transfer.state === 'detected' && transfer.note !== null)
      if (!isShort) throw new Error(`not waiting yet: ${JSON.stringify(deposit.transfers)}`)
      return deposit
    },
    { timeout: 30_000, interval: 200 },
  )
}

const intentsOf = (address: string) =>
  scene.testApp.database.db
    .select()
    .from(routeIntents)
    .where(eq(routeIntents.fromAddress, address.toLowerCase()))

describe('short transfers into a deposit', { timeout: 120_000 }, () => {
  it('a transfer short of a fixed-amount link does not pay it; a second that adds up pays it once', async () => {
    const link = await createTenUsdcLink()
    const deposit = await createTestDeposit(scene.testApp.app, link.slug)
    expect(deposit.amount).toBe('10')
    const before = await receiverUsdc()

    await sendTokenTransfer(scene.devnet, chainId, payers.first, usdc(), deposit.address, parseUnits('4', 6))
    const waiting = await waitForShort(deposit.id, 1)
    expect(waiting.transfers[0]?.note).toMatch(/^Less than the amount so far/)
    expect(waiting.transfers[0]?.intentId).toBeNull()
    expect(await intentsOf(deposit.address)).toHaveLength(0)
    expect(await receiverUsdc()).toBe(before)

    await sendTokenTransfer(scene.devnet, chainId, payers.second, usdc(), deposit.address, parseUnits('6', 6))
    const settled = await waitForDepositTransfers(scene.testApp.app, deposit.id, 2)
    expect(settled.transfers.map((transfer) => transfer.state)).toEqual(['routed', 'routed'])
    const [first, second] = settled.transfers
    // One payment of the whole amount: one route intent, one forward, its gas counted once.
    expect(first?.intentId).toBe(second?.intentId)
    expect(first?.actionTxHash).toBe(second?.actionTxHash)
    expect(settled.transfers.filter((transfer) => transfer.gasCostWei !== null)).toHaveLength(1)
    const intents = await intentsOf(deposit.address)
    expect(intents.map((intent) => intent.fromAmount)).toEqual([parseUnits('10', 6).toString()])
    const record = await waitForFinalRecord(scene.testApp.app, deposit.address, first?.intentId ?? '')
    expect(record.status).toBe('success')
    expect(record.to_amount_wei).toBe(parseUnits('10', 6).toString())
    expect((await receiverUsdc()) - before).toBe(parseUnits('10', 6))
  })

  it('an invoice takes a short transfer as a partial payment', async () => {
    const { invoice, linkId } = await createTestInvoice(scene.testApp, scene.devnet, {
      chainId,
      receiver: receiver(),
      amount: '20',
    })
    const [link] = await scene.testApp.database.db.select().from(links).where(eq(links.id, linkId))
    const deposit = await createTestDeposit(scene.testApp.app, link?.aliasSlug ?? '', {
      invoiceId: invoice.id,
    })
    await sendTokenTransfer(
      scene.devnet,
      chainId,
      payers.invoice,
      usdc(),
      deposit.address,
      parseUnits('5', 6),
    )
    const settled = await waitForDepositTransfers(scene.testApp.app, deposit.id, 1)
    expect(settled.transfers[0]?.state).toBe('routed')
    const partial = await waitForInvoice(scene.testApp, invoice.id, (row) => row.amountPaidUnits !== '0')
    expect(BigInt(partial.amountPaidUnits)).toBe(parseUnits('5', 6))
    expect(partial.state).toBe('open')
  })

  // Last: it moves the workers' clock and Base's past the deposit's expiry for good.
  it('a short transfer that nothing completes goes back to its sender once the deposit expires', async () => {
    const link = await createTenUsdcLink()
    const deposit = await createTestDeposit(scene.testApp.app, link.slug)
    const payer = scene.devnet.account(payers.short).address
    const payerBefore = await scene.devnet.balanceOf(chainId, usdc(), payer)
    const before = await receiverUsdc()
    await sendTokenTransfer(scene.devnet, chainId, payers.short, usdc(), deposit.address, parseUnits('3', 6))
    await waitForShort(deposit.id, 1)

    clockOffsetMs = 61 * 60_000
    const client = scene.devnet.publicClient(chainId)
    await client.request({ method: 'evm_increaseTime' as never, params: [3700] as never })
    await client.request({ method: 'evm_mine' as never, params: [] as never })
    const settled = await waitForDepositTransfers(scene.testApp.app, deposit.id, 1)
    expect(settled.transfers[0]).toMatchObject({ state: 'refunded', intentId: null })
    expect(await scene.devnet.balanceOf(chainId, usdc(), payer)).toBe(payerBefore)
    expect(await receiverUsdc()).toBe(before)
    expect(await intentsOf(deposit.address)).toHaveLength(0)
  })
})
