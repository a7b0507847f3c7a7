import {
  receiptResponseSchema,
  reviveReceiptMessage,
  wellKnownReceiptsSchema,
} from '@quicklinks/core/api/receipts'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { verifyReceiptOnChain } from '@quicklinks/core/verify-receipt-on-chain'
import { eq } from 'drizzle-orm'
import { getAddress, verifyTypedData } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { createWorkerRounds } from '../../../test/create-worker-rounds.ts'
import {
  buildTestRoute,
  getDevnetRelayerPrivateKey,
  type PaymentDevnet,
  postJson,
  startPaymentApp,
  startPaymentDevnet,
} from '../../../test/payment-test-kit.ts'
import {
  listMailTo,
  payTestLink,
  receiptPayerIndex,
  receiptReceiverIndex,
  startTestMailCatcher,
} from '../../../test/receipt-test-kit.ts'
import { receiptEmails } from '../../db/schema.ts'

let devnet: PaymentDevnet
let mail: Awaited<ReturnType<typeof startTestMailCatcher>>
let first: TestApp
let second: TestApp
const firstRounds = createWorkerRounds()
const secondRounds = createWorkerRounds()
const receiptSigningKey = `0x${'7c'.repeat(32)}` as const

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  mail = await startTestMailCatcher()
  const overrides = { smtpUrl: `smtp://127.0.0.1:${mail.catcher.port}`, receiptSigningKey }
  first = await startPaymentApp(devnet, overrides, { onWorkerRound: firstRounds.onWorkerRound })
  // A second instance on the same database, sweeping and sending receipt mails too.
  second = await buildTestApp(
    {
      devMode: true,
      devnetDeploymentFile: devnet.deploymentFile,
      relayerPrivateKey: getDevnetRelayerPrivateKey(),
      workerIntervalMs: 100,
      ...overrides,
    },
    { database: first.database, startWorkers: true, onWorkerRound: secondRounds.onWorkerRound },
  )
})

afterAll(async () => {
  await second?.app.close()
  await first?.close()
  await mail?.catcher.close()
  await devnet?.stop()
})

const getReceipt = (app: TestApp, intentId: string) =>
  app.app.inject({ method: 'GET', url: `/api/receipts/${intentId}` })

describe('receipts of verified payments', { timeout: 90_000 }, () => {
  it("signs a devnet payment's receipt that viem's verifyTypedData alone accepts, the same at every fetch and instance", async () => {
    const payment = await payTestLink(devnet, first.app, { ownerEmail: null })
    const response = await getReceipt(first, payment.intentId)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['cache-control']).toBe('public, max-age=3600')
    const receipt = receiptResponseSchema.parse(response.json()).data
    expect(receipt.message).toMatchObject({
      invoiceId: '',
      receiver: getAddress(devnet.account(receiptReceiverIndex).address),
      payer: getAddress(devnet.account(receiptPayerIndex).address),
      destinationChainId: '8453',
      sourceChainId: '8453',
      destinationToken: getAddress(devnet.token(8453, 'USDC')),
      amountReceived: payment.toAmountWei,
      sourceTxHash: payment.sourceTxHash,
      destinationTxHash: payment.destTxHash,
    })
    expect(receipt.message.linkId).toMatch(/^[0-9a-f-]{36}$/)

    const message = reviveReceiptMessage(receipt.message)
    const { domain, types, primaryType, signature, signer } = receipt
    const address = signer as `0x${string}`
    const hex = signature as `0x${string}`
    expect(await verifyTypedData({ address, domain, types, primaryType, message, signature: hex })).toBe(true)
    const edited = { ...message, amountReceived: message.amountReceived + 1n }
    expect(
      await verifyTypedData({ address, domain, types, primaryType, message: edited, signature: hex }),
    ).toBe(false)

    // issuedAt is when the payment became final: another fetch, from another instance, is the same receipt.
    const again = await getReceipt(second, payment.intentId)
    expect(again.json()).toEqual(response.json())

    const wellKnown = await first.app.inject({ method: 'GET', url: '/.well-known/quick-links-receipts.json' })
    expect(wellKnown.statusCode).toBe(200)
    const published = wellKnownReceiptsSchema.parse(wellKnown.json())
    expect(published.signer).toBe(signer)
    expect(published.keyId).toMatch(/^0x[0-9a-f]{16}$/)
    expect(published.domain).toEqual(domain)
    expect(JSON.stringify(wellKnown.json())).not.toContain(receiptSigningKey.slice(2))
  })

  it("matches a native payment's receipt to the chain by the receiver's balance change, and not an edited one", async () => {
    const payment = await payTestLink(devnet, first.app, { ownerEmail: null, symbol: 'ETH' })
    const receipt = receiptResponseSchema.parse((await getReceipt(first, payment.intentId)).json()).data
    const message = reviveReceiptMessage(receipt.message)
    expect(message.destinationToken).toBe(nativeTokenAddress)
    const getClient = (chainId: number) => devnet.publicClient(chainId)
    expect(await verifyReceiptOnChain(message, getClient)).toEqual({ isMatch: true })
    const edited = { ...message, amountReceived: message.amountReceived + 1n }
    expect(await verifyReceiptOnChain(edited, getClient)).toMatchObject({
      isMatch: false,
      reason: expect.stringContaining(`credited ${message.receiver} ${message.amountReceived} of`),
    })
    const stranger = { ...message, payer: getAddress(devnet.account(7).address) }
    expect(await verifyReceiptOnChain(stranger, getClient)).toMatchObject({
      isMatch: false,
      reason: expect.stringContaining('not the payer'),
    })
  })

  it('answers 404 for an unknown or malformed id and 409 while a payment is not verified', async () => {
    expect((await getReceipt(first, `0x${'ab'.repeat(32)}`)).statusCode).toBe(404)
    expect((await getReceipt(first, 'not-an-id')).statusCode).toBe(404)
    const usdc = devnet.token(8453, 'USDC')
    const unpaid = await buildTestRoute(first.app, {
      fromChain: 8453,
      toChain: '8453',
      fromToken: usdc,
      toToken: usdc,
      fromAmount: '1000000',
      fromAddress: devnet.account(receiptPayerIndex).address,
      toAddress: devnet.account(receiptReceiverIndex).address,
      slippage: 1,
    })
    const pending = await getReceipt(first, unpaid.intentId)
    expect(pending.statusCode).toBe(409)
    expect(pending.json().error.message).toMatch(/not verified yet/)
    const form = await postJson(first.app, `/api/receipts/${unpaid.intentId}/email`, {
      email: 'x@example.com',
    })
    expect(form.statusCode).toBe(409)
  })

  it('mails the payee one receipt per payment, even with two instances sweeping, and skips a payee without an address', async () => {
    const ownerEmail = `payee-${Date.now()}@example.com`
    const payment = await payTestLink(devnet, first.app, { ownerEmail })
    await vi.waitFor(() => expect(listMailTo(mail.outbox, ownerEmail)).toHaveLength(1), { timeout: 15_000 })
    // Both instances' mailers have swept and sent several times since: still one mail.
    await firstRounds.settle('receipt-mail', 3)
    await secondRounds.settle('receipt-mail', 3)
    const mails = listMailTo(mail.outbox, ownerEmail)
    expect(mails).toHaveLength(1)
    expect(mails[0]?.subject).toBe('Payment received: 12.5 USDC')
    expect(mails[0]?.text).toContain(`/pay/receipt/${payment.intentId}`)
    expect(mails[0]?.text).toContain(payment.destTxHash)
    // Nothing a person wrote: not the link's name.
    expect(mails[0]?.text).not.toContain('Pay USDC')
    const rows = await first.app.db
      .select()
      .from(receiptEmails)
      .where(eq(receiptEmails.intentId, payment.intentId))
    expect(rows.map((row) => [row.role, row.state, row.email])).toEqual([['payee', 'sent', ownerEmail]])

    const silent = await payTestLink(devnet, first.app, { ownerEmail: null })
    await vi.waitFor(
      async () => {
        const [row] = await first.app.db
          .select()
          .from(receiptEmails)
          .where(eq(receiptEmails.intentId, silent.intentId))
        expect(row?.state).toBe('skipped')
      },
      { timeout: 15_000 },
    )
  })

  it("sends the payer's copy once per address, to at most 3 addresses, behind CSRF and per-client limits", async () => {
    const payment = await payTestLink(devnet, first.app, { ownerEmail: null })
    const url = `/api/receipts/${payment.intentId}/email`
    const client = '198.51.100.7'
    const noCsrf = await first.app.inject({ method: 'POST', url, payload: { email: 'a@example.com' } })
    expect(noCsrf.statusCode).toBe(403)
    expect((await postJson(first.app, url, { email: 'not an address' }, client)).statusCode).toBe(422)

    const payer = `payer-${Date.now()}@example.com`
    for (const attempt of [payer, payer.toUpperCase()]) {
      const queued = await postJson(first.app, url, { email: attempt }, client)
      expect(queued.statusCode, queued.body).toBe(202)
      expect(queued.json()).toEqual({ data: { queued: true } })
    }
    await vi.waitFor(() => expect(listMailTo(mail.outbox, payer)).toHaveLength(1), { timeout: 15_000 })
    await firstRounds.settle('receipt-mail', 2)
    expect(listMailTo(mail.outbox, payer)).toHaveLength(1)
    expect(listMailTo(mail.outbox, payer)[0]?.subject).toBe('Your payment receipt: 12.5 USDC')

    expect((await postJson(first.app, url, { email: `b-${payer}` }, client)).statusCode).toBe(202)
    expect((await postJson(first.app, url, { email: `c-${payer}` }, client)).statusCode).toBe(202)
    const fourth = await postJson(first.app, url, { email: `d-${payer}` }, client)
    expect(fourth.statusCode).toBe(429)
    expect(fourth.json().error.message).toMatch(/already sent to 3 addresses/)

    // One client may ask at most 10 times an hour, whatever the payments.
    const spammer = '203.0.113.9'
    const answers: number[] = []
    for (let index = 0; index < 11; index += 1) {
      const other = `0x${index.toString(16).padStart(64, '0')}`
      answers.push(
        (await postJson(first.app, `/api/receipts/${other}/email`, { email: 'v@example.com' }, spammer))
          .statusCode,
      )
    }
    expect(answers.slice(0, 10).every((status) => status === 404)).toBe(true)
    expect(answers[10]).toBe(429)
  })
})
