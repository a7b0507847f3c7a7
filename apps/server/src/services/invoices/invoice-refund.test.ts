import { eq } from 'drizzle-orm'
import { erc20Abi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TestApp } from '../../../test/build-test-app.ts'
import {
  createTestInvoice,
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
import { getTestChainControl } from '../../../test/relayer-test-kit.ts'
import { relayerDeposits } from '../../db/schema.ts'
import { maxBackoffMs } from '../payments/tracking/payment-patches.ts'

// A cross-chain deposit the relayer cannot fill goes back to its payer: the invoice it was for is
// refunded (nothing else was paid). Its own devnet: it moves two chains' clocks, and the app's
// workers' clock once the refund is sent, rather than waiting out the tracker's 30 s look at a failure.

let devnet: PaymentDevnet
let testApp: TestApp
const payerIndex = 8
const relayerIndex = 9
let clockOffsetMs = 0

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  testApp = await startPaymentApp(devnet, {}, { workerNow: () => Date.now() + clockOffsetMs })
})
afterAll(async () => {
  await testApp?.close()
  await devnet?.stop()
})

describe('a refunded payment', { timeout: 150_000 }, () => {
  it('makes an invoice with nothing else paid refunded, and it takes no more routes', async () => {
    const receiver = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}` as const
    const created = await createTestInvoice(testApp, devnet, { chainId: 43114, receiver, amount: '5' })
    const destinationUsdc = created.token
    const payer = devnet.account(payerIndex).address
    const sourceUsdc = devnet.token(8453, 'USDC')
    const body = {
      fromChain: 8453,
      toChain: 43114,
      fromToken: sourceUsdc,
      toToken: destinationUsdc,
      fromAmount: parseUnits('5', 6).toString(),
      fromAddress: payer,
      toAddress: created.invoice.receiverAddress,
      linkId: created.linkId,
      invoiceId: created.invoice.id,
    }
    const route = await buildTestRoute(testApp.app, body)
    // Once quoted, the relayer's Avalanche USDC goes elsewhere: it has nothing left to fill with.
    const relayer = devnet.account(relayerIndex).address
    const held = await devnet.balanceOf(43114, destinationUsdc, relayer)
    const drain = await devnet.wallet(43114, relayerIndex).writeContract({
      address: destinationUsdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [devnet.account(1).address, held],
    })
    await devnet.publicClient(43114).waitForTransactionReceipt({ hash: drain })

    const hash = await sendTestRoute(devnet, 8453, payerIndex, route, sourceUsdc)
    await postJson(testApp.app, `/api/route-intent/${route.intentId}/receipt`, { txHash: hash })
    await waitForInvoice(testApp, created.invoice.id, (row) => row.state === 'processing')

    // Past the fill deadline on the destination, past deadline + settlement window on the source.
    await getTestChainControl(devnet, 43114).increaseTime(700)
    await getTestChainControl(devnet, 8453).increaseTime(700 + 3700)
    // The relayer refunds the escrow; the tracker looks at a failure still watched every 30 s:
    // the workers' clock moves on by that much once the refund is sent, and the tracker records it.
    await vi.waitFor(
      async () => {
        const [deposit] = await testApp.database.db
          .select()
          .from(relayerDeposits)
          .where(eq(relayerDeposits.intentId, route.intentId))
        expect(deposit?.state).toBe('refunded')
      },
      { timeout: 60_000, interval: 100 },
    )
    clockOffsetMs = maxBackoffMs
    const invoice = await waitForInvoice(
      testApp,
      created.invoice.id,
      (row) => row.state === 'refunded',
      30_000,
    )
    const record = await waitForFinalRecord(testApp.app, payer, route.intentId)
    expect(record).toMatchObject({ status: 'failed', is_refunded: true })
    expect(invoice.amountPaidUnits).toBe('0')
    expect((await readTestTransitions(testApp, created.invoice.id)).at(-1)).toEqual([
      'processing',
      'refunded',
      route.intentId,
    ])
    const again = await postJson(testApp.app, '/api/local/route', body)
    expect(again.json().error.message).toBe('This invoice was refunded: it takes no more payments.')
  })
})
