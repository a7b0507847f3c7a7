import { testTokenAbi, testTokenBytecode } from '@quicklinks/contracts/generated/test-token'
import { eq } from 'drizzle-orm'
import { getAddress, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  createDepositLink,
  createTestDeposit,
  sendNativeTransfer,
  sendTokenTransfer,
  waitForDepositTransfers,
} from '../../../../test/deposit-test-kit.ts'
import { createTestInvoice, waitForInvoice } from '../../../../test/invoice-test-kit.ts'
import { usePaymentScene } from '../../../../test/payment-scene.ts'
import { waitForFinalRecord } from '../../../../test/payment-test-kit.ts'
import { links } from '../../../db/schema.ts'

// One plain transfer to a deposit address pays the link (docs/decisions/0030): the watcher sees it,
// deploys the forwarder and routes it through the same route, tracker and verifier as a wallet
// payment; what cannot be routed, or came late, goes back to its sender.

/** The workers' clock runs this far ahead of the wall clock (the late tests move it past expiry). */
let clockOffsetMs = 0
const scene = usePaymentScene({}, { workerNow: () => Date.now() + clockOffsetMs })
const receiverIndex = 2
/** Accounts the app never saw before these tests: they only ever send plain transfers. */
const freshPayers = { avalanche: 6, native: 7, base: 8, late: 5 } as const

const receiver = () => scene.devnet.account(receiverIndex).address
const baseUsdc = () => scene.devnet.token(8453, 'USDC')
const receiverBaseUsdc = () => scene.devnet.balanceOf(8453, baseUsdc(), receiver())

async function createBaseUsdcLink() {
  return createDepositLink(scene.testApp.database.db, {
    receiver: receiver(),
    chainId: 8453,
    token: baseUsdc(),
    symbol: 'USDC',
  })
}

/** Waits for the deposit's transfers to settle and for each routed one's record to be final; answers the records. */
async function waitForRoutedPayments(depositId: string, address: string, count: number) {
  const deposit = await waitForDepositTransfers(scene.testApp.app, depositId, count)
  const records = []
  for (const transfer of deposit.transfers) {
    expect(transfer.state, JSON.stringify(transfer)).toBe('routed')
    expect(BigInt(transfer.gasCostWei ?? '0')).toBeGreaterThan(0n)
    records.push(await waitForFinalRecord(scene.testApp.app, address, transfer.intentId ?? ''))
  }
  return records
}

describe('deposit addresses, paid by plain transfers', { timeout: 120_000 }, () => {
  it('an account that never used the app pays a Base USDC link with one USDC transfer on Avalanche', async () => {
    const link = await createBaseUsdcLink()
    const deposit = await createTestDeposit(scene.testApp.app, link.slug)
    const before = await receiverBaseUsdc()
    const amount = parseUnits('10', 6)
    const avalancheUsdc = scene.devnet.token(43114, 'USDC')
    await sendTokenTransfer(
      scene.devnet,
      43114,
      freshPayers.avalanche,
      avalancheUsdc,
      deposit.address,
      amount,
    )
    const [record] = await waitForRoutedPayments(deposit.id, deposit.address, 1)
    expect(record?.status).toBe('success')
    expect(record?.route_path.map((step) => step.type)).toContain('bridge')
    expect((await receiverBaseUsdc()) - before).toBe(amount)
    expect(await scene.devnet.balanceOf(43114, avalancheUsdc, getAddress(deposit.address))).toBe(0n)
  })

  it('the same with native AVAX', async () => {
    const link = await createBaseUsdcLink()
    const deposit = await createTestDeposit(scene.testApp.app, link.slug)
    const before = await receiverBaseUsdc()
    await sendNativeTransfer(scene.devnet, 43114, freshPayers.native, deposit.address, parseEther('1'))
    const [record] = await waitForRoutedPayments(deposit.id, deposit.address, 1)
    expect(record?.status).toBe('success')
    const credited = (await receiverBaseUsdc()) - before
    // 1 AVAX at the seeded $30, less the pool's fee and price move: about 29.9 USDC.
    expect(credited).toBe(BigInt(record?.to_amount_wei ?? '0'))
    expect(credited).toBeGreaterThan(parseUnits('29', 6))
  })

  it('the same chain: a Base USDC transfer to a Base USDC link', async () => {
    const link = await createBaseUsdcLink()
    const deposit = await createTestDeposit(scene.testApp.app, link.slug)
    const before = await receiverBaseUsdc()
    const amount = parseUnits('7.25', 6)
    await sendTokenTransfer(scene.devnet, 8453, freshPayers.base, baseUsdc(), deposit.address, amount)
    const [record] = await waitForRoutedPayments(deposit.id, deposit.address, 1)
    expect(record?.status).toBe('success')
    expect(record?.route_path.map((step) => step.type)).toEqual(['transfer'])
    expect((await receiverBaseUsdc()) - before).toBe(amount)
  })

  it('an invoice paid by two transfers on two chains adds up to paid', async () => {
    const { invoice, linkId } = await createTestInvoice(scene.testApp, scene.devnet, {
      chainId: 8453,
      receiver: receiver(),
      amount: '20',
    })
    const [link] = await scene.testApp.database.db.select().from(links).where(eq(links.id, linkId))
    const deposit = await createTestDeposit(scene.testApp.app, link?.aliasSlug ?? '', {
      invoiceId: invoice.id,
    })
    expect(deposit.amount).toBe('20')
    const avalancheUsdc = scene.devnet.token(43114, 'USDC')
    const arbitrumUsdc = scene.devnet.token(42161, 'USDC')
    await sendTokenTransfer(
      scene.devnet,
      43114,
      freshPayers.avalanche,
      avalancheUsdc,
      deposit.address,
      parseUnits('12', 6),
    )
    await sendTokenTransfer(
      scene.devnet,
      42161,
      freshPayers.avalanche,
      arbitrumUsdc,
      deposit.address,
      parseUnits('8', 6),
    )
    const records = await waitForRoutedPayments(deposit.id, deposit.address, 2)
    expect(records.map((record) => record.status)).toEqual(['success', 'success'])
    const paid = await waitForInvoice(scene.testApp, invoice.id, (row) => row.state === 'paid')
    expect(BigInt(paid.amountPaidUnits)).toBe(parseUnits('20', 6))
  })

  // Last: it moves the workers' clock and Avalanche's past the deposits' expiry for good.
  it('refunds an unsupported token and a late transfer to their senders once the deposit has expired', async () => {
    const payer = scene.devnet.account(freshPayers.late).address
    const wallet = scene.devnet.wallet(43114, freshPayers.late)
    const client = scene.devnet.publicClient(43114)
    const deployHash = await wallet.deployContract({
      abi: testTokenAbi,
      bytecode: testTokenBytecode,
      args: ['Some Token', 'SOME', 18],
    })
    const strange = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress
    if (!strange) throw new Error('no token deployed')
    const mintHash = await wallet.writeContract({
      address: strange,
      abi: testTokenAbi,
      functionName: 'mint',
      args: [payer, parseEther('5')],
    })
    await client.waitForTransactionReceipt({ hash: mintHash })

    const link = await createBaseUsdcLink()
    const unsupported = await createTestDeposit(scene.testApp.app, link.slug)
    const late = await createTestDeposit(scene.testApp.app, link.slug)
    await sendTokenTransfer(
      scene.devnet,
      43114,
      freshPayers.late,
      strange,
      unsupported.address,
      parseEther('5'),
    )
    expect(await scene.devnet.balanceOf(43114, strange, payer)).toBe(0n)

    // An hour and a bit later, on the workers' clock and on Avalanche's.
    clockOffsetMs = 61 * 60_000
    await scene.devnet
      .publicClient(43114)
      .request({ method: 'evm_increaseTime' as never, params: [3700] as never })
    await scene.devnet.publicClient(43114).request({ method: 'evm_mine' as never, params: [] as never })
    const usdc = scene.devnet.token(43114, 'USDC')
    const usdcBefore = await scene.devnet.balanceOf(43114, usdc, payer)
    await sendTokenTransfer(scene.devnet, 43114, freshPayers.late, usdc, late.address, parseUnits('3', 6))

    for (const deposit of [unsupported, late]) {
      const settled = await waitForDepositTransfers(scene.testApp.app, deposit.id, 1)
      expect(settled.transfers[0]).toMatchObject({ state: 'refunded', intentId: null })
    }
    expect(await scene.devnet.balanceOf(43114, strange, payer)).toBe(parseEther('5'))
    expect(await scene.devnet.balanceOf(43114, usdc, payer)).toBe(usdcBefore)
  })
})
