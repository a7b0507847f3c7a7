import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestInvoice, payTestInvoice, waitForInvoice } from '../../../test/invoice-test-kit.ts'
import { usePaymentScene } from '../../../test/payment-scene.ts'
import { nativeToken } from '../../../test/payment-test-kit.ts'
import { links } from '../../db/schema.ts'
import { paymentEventType } from '../payments/tracking/payment-events.ts'
import { createWebhookEndpoint } from './manage-webhook-endpoints.ts'

/**
 * Payments and invoices on the devnet as a merchant's receiver hears of them: each event signed,
 * carrying the same payment or invoice object the API answers, sent once the chain says so.
 */
type Received = {
  headers: IncomingHttpHeaders
  body: string
  payload: { type: string; data: Record<string, unknown> }
}

const scene = usePaymentScene()
const payerIndex = 1
let server: Server
let receiverUrl: string
const received: Received[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      received.push({ headers: request.headers, body, payload: JSON.parse(body) })
      response.writeHead(204)
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** Subscribes the link owner's endpoint to every payment and invoice event; answers its secret. */
async function subscribe(linkId: string): Promise<string> {
  const { db } = scene.testApp.database
  const [link] = await db.select({ userId: links.userId }).from(links).where(eq(links.id, linkId))
  const endpoint = await createWebhookEndpoint(db, {
    userId: link?.userId as string,
    url: receiverUrl,
    events: [
      'invoice.paid_over',
      'payment.processing',
      'payment.succeeded',
      'payment.failed',
      'invoice.paid',
      'invoice.underpaid',
    ],
    isDevMode: true,
  })
  return endpoint.secret
}

const about = (intentId: string) =>
  received.filter((each) => (each.payload.data as { intentId?: string }).intentId === intentId)

describe('payment and invoice webhooks on the devnet', { timeout: 90_000 }, () => {
  it('sends payment.processing then payment.succeeded for a cross-chain payment of an invoice, then invoice.paid', async () => {
    const { devnet, testApp } = scene
    const receiver = devnet.account(3).address
    const { invoice, linkId } = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver,
      amount: '5',
    })
    const secret = await subscribe(linkId)
    const { route } = await payTestInvoice(testApp, devnet, {
      invoice,
      linkId,
      payerIndex,
      fromChain: 43114,
      fromToken: nativeToken,
      fromAmount: parseEther('1'),
    })
    await expect
      .poll(() => about(route.intentId).map((each) => each.payload.type), { timeout: 20_000 })
      .toEqual(['payment.processing', 'payment.succeeded'])
    const [processing, succeeded] = about(route.intentId) as [Received, Received]
    for (const each of [processing, succeeded]) {
      expect(new Webhook(secret).verify(each.body, each.headers as Record<string, string>)).toEqual(
        each.payload,
      )
    }
    expect(processing.payload.data).toMatchObject({
      intentId: route.intentId,
      linkId,
      invoiceId: invoice.id,
      state: expect.stringMatching(/^(submitted|bridging)$/),
      sourceChainId: 43114,
      sourceTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      destChainId: 8453,
      amountReceived: null,
    })
    expect(succeeded.payload.data).toMatchObject({
      intentId: route.intentId,
      state: 'success',
      sourceTxHash: (processing.payload.data as { sourceTxHash: string }).sourceTxHash,
      destTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      toToken: { symbol: 'USDC', decimals: 6 },
      fromToken: { symbol: 'AVAX', decimals: 18 },
      routeKind: 'bridge',
    })
    // The same payment as GET /api/payments answers it (the owner reads it there too).
    expect(
      Number((succeeded.payload.data as { amountReceived: string }).amountReceived),
    ).toBeGreaterThanOrEqual(5)

    // Paid, or paid over when the route delivered more than the tolerance: the event names the state.
    const settled = await waitForInvoice(
      testApp,
      invoice.id,
      (row) => row.state !== 'open' && row.state !== 'processing',
    )
    expect(['paid', 'paid_over']).toContain(settled.state)
    const ofInvoice = () => received.filter((each) => each.payload.type.startsWith('invoice.'))
    await expect
      .poll(() => ofInvoice().map((each) => each.payload.type), { timeout: 20_000 })
      .toEqual([`invoice.${settled.state}`])
    const paid = ofInvoice()[0] as Received
    expect(paid.payload.data).toMatchObject({ id: invoice.id, linkId, state: settled.state, amount: '5' })
    expect(new Webhook(secret).verify(paid.body, paid.headers as Record<string, string>)).toEqual(
      paid.payload,
    )
  })

  it('sends nothing for a payment whose owner has no endpoint', async () => {
    const { devnet, testApp } = scene
    const { invoice, linkId } = await createTestInvoice(testApp, devnet, {
      chainId: 8453,
      receiver: devnet.account(4).address,
      amount: '1',
    })
    const { route } = await payTestInvoice(testApp, devnet, {
      invoice,
      linkId,
      payerIndex,
      fromChain: 8453,
      fromToken: devnet.token(8453, 'USDC'),
      fromAmount: parseUnits('1', 6),
    })
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(about(route.intentId)).toEqual([])
  })
})

describe('which change of a payment is an event', () => {
  const at = (status: string | null, more: Record<string, unknown> = {}) => ({
    status,
    statusRaw: status,
    isRefunded: false,
    sourceTxHash: null,
    ...more,
  })
  it('names processing, succeeded, failed and refunded, and nothing else', () => {
    expect(paymentEventType(at('submitted'), at('submitted', { sourceTxHash: '0x1' }))).toBe(
      'payment.processing',
    )
    expect(paymentEventType(at(null), at('submitted'))).toBeNull()
    expect(
      paymentEventType(at('submitted', { sourceTxHash: '0x1' }), at('bridging', { sourceTxHash: '0x1' })),
    ).toBeNull()
    expect(
      paymentEventType(at('bridging', { sourceTxHash: '0x1' }), at('success', { sourceTxHash: '0x1' })),
    ).toBe('payment.succeeded')
    expect(
      paymentEventType(at('success', { sourceTxHash: '0x1' }), at('bridging', { sourceTxHash: '0x1' })),
    ).toBe('payment.processing')
    expect(paymentEventType(at('submitted'), at('failed'))).toBe('payment.failed')
    expect(paymentEventType(at('submitted'), at('failed', { statusRaw: 'failed_mismatch' }))).toBeNull()
    expect(paymentEventType(at('failed'), at('failed', { isRefunded: true }))).toBe('payment.refunded')
    expect(paymentEventType(at('success'), at('success'))).toBeNull()
  })
})
