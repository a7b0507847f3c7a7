import type { AddressInfo } from 'node:net'
import { x402Headers, x402PaidResponseSchema } from '@quicklinks/core/api/x402'
import { x402Client } from '@x402/core/client'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { verifyReceiptSignatureEIP712 } from '@x402/extensions/offer-receipt'
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch'
import { getAddress, parseUnits } from 'viem'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { waitForDepositTransfers } from '../../../test/deposit-test-kit.ts'
import { usePaymentScene } from '../../../test/payment-scene.ts'
import { createX402Link, listPaymentsAs } from '../../../test/x402-pay-test-kit.ts'

// The stock x402 client pays a Base USDC link over HTTP (issue 34, docs/decisions/0031):
// `wrapFetchWithPayment` from @x402/fetch with @x402/evm's exact scheme and a viem account, against
// the app listening on a real port, settled by our facilitator through the relayer on the devnet.

const scene = usePaymentScene()
const receiverIndex = 2
const payerIndex = 4
let origin = ''

beforeAll(async () => {
  const { app } = scene.testApp
  await app.listen({ port: 0, host: '127.0.0.1' })
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

const receiver = () => scene.devnet.account(receiverIndex).address
const receiverBaseUsdc = () => scene.devnet.balanceOf(8453, scene.devnet.token(8453, 'USDC'), receiver())

/** The stock client, paying only on `chainId`. */
function createPayingFetch(chainId: number) {
  const client = new x402Client()
  registerExactEvmScheme(client, {
    signer: scene.devnet.account(payerIndex),
    networks: [`eip155:${chainId}`],
  })
  // The devnet's USDC is not one of the client's default assets: allowed by address, capped at 10 USDC.
  client.setSpendControls({
    allowedAssets: [
      {
        network: `eip155:${chainId}`,
        asset: scene.devnet.token(chainId, 'USDC'),
        maxAmountPerPayment: '10000000',
      },
    ],
  })
  return wrapFetchWithPayment(fetch, client)
}

describe('the stock @x402/fetch client pays a Base USDC link', { timeout: 150_000 }, () => {
  it('from Base: 200 with PAYMENT-RESPONSE, the receiver gets the amount, the record is verified', async () => {
    const link = await createX402Link(scene, receiverIndex, '5')
    const before = await receiverBaseUsdc()
    const response = await createPayingFetch(8453)(`${origin}/x402/pay/${link.slug}`)
    const text = await response.text()
    expect(response.status, text).toBe(200)
    const settled = decodePaymentResponseHeader(response.headers.get(x402Headers.paymentResponse) ?? '')
    expect(settled).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: scene.devnet.account(payerIndex).address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    expect((await receiverBaseUsdc()) - before).toBe(parseUnits('5', 6))

    const { data } = x402PaidResponseSchema.parse(JSON.parse(text))
    expect(data.payment).toMatchObject({
      sourceTxHash: settled.transaction,
      payer: scene.devnet.account(payerIndex).address.toLowerCase(),
      fromChainId: 8453,
      toChainId: 8453,
    })
    // The offer-receipt extension's receipt, signed by the instance's receipt key, in both places.
    if (!data.offerReceipt) throw new Error('no offer receipt')
    const verified = await verifyReceiptSignatureEIP712(data.offerReceipt)
    expect(verified.signer).toBe(scene.testApp.app.receiptSigner?.account.address)
    expect(verified.payload).toMatchObject({
      resourceUrl: `${scene.testApp.app.config.publicOrigin}/x402/pay/${link.slug}`,
      network: 'eip155:8453',
      transaction: settled.transaction,
    })
    expect(settled.extensions).toEqual({ 'offer-receipt': { info: { receipt: data.offerReceipt } } })

    // The payee's history shows it verified, from the payer's wallet (our relayer only submitted it).
    const intentId = data.payment?.intentId ?? ''
    await vi.waitFor(
      async () => {
        const payments = await listPaymentsAs(scene.testApp.app, scene.testApp.database.db, receiver())
        const payment = payments.find((row) => row.intentId === intentId)
        expect(payment).toMatchObject({ state: 'success', amountReceived: '5' })
      },
      { timeout: 30_000, interval: 200 },
    )
  })

  it('from Avalanche, across chains: into the deposit address, bridged, the receiver gets at least the amount', async () => {
    const link = await createX402Link(scene, receiverIndex, '4')
    const before = await receiverBaseUsdc()
    const avalancheUsdc = scene.devnet.token(43114, 'USDC')
    const payer = scene.devnet.account(payerIndex).address
    const payerBefore = await scene.devnet.balanceOf(43114, avalancheUsdc, payer)
    const response = await createPayingFetch(43114)(`${origin}/x402/pay/${link.slug}`)
    const text = await response.text()
    expect(response.status, text).toBe(200)
    const settled = decodePaymentResponseHeader(response.headers.get(x402Headers.paymentResponse) ?? '')
    expect(settled).toMatchObject({ success: true, network: 'eip155:43114', payer })
    const { data } = x402PaidResponseSchema.parse(JSON.parse(text))
    const deposit = data.deposit
    if (!deposit) throw new Error('no deposit in the answer')
    // The payer paid what the offer asked on Avalanche, into the deposit address.
    const paid = payerBefore - (await scene.devnet.balanceOf(43114, avalancheUsdc, payer))
    expect(paid).toBeGreaterThanOrEqual(parseUnits('4', 6))

    const settledDeposit = await waitForDepositTransfers(scene.testApp.app, deposit.id, 1, 60_000)
    const [transfer] = settledDeposit.transfers
    expect(transfer).toMatchObject({ chainId: 43114, state: 'routed', amount: paid.toString() })
    expect(getAddress(settledDeposit.address)).toBe(getAddress(deposit.address))
    await vi.waitFor(
      async () => {
        const payments = await listPaymentsAs(scene.testApp.app, scene.testApp.database.db, receiver())
        const payment = payments.find((row) => row.intentId === transfer?.intentId)
        expect(payment?.state).toBe('success')
      },
      { timeout: 60_000, interval: 200 },
    )
    const received = (await receiverBaseUsdc()) - before
    expect(received).toBeGreaterThanOrEqual(parseUnits('4', 6))
  })
})
