import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { x402Headers, x402PaymentRequiredSchema } from '@quicklinks/core/api/x402'
import { PaymentRequiredSchema } from '@x402/core/schemas'
import { extractOffersFromPaymentRequired, verifyOfferSignatureEIP712 } from '@x402/extensions/offer-receipt'
import { eq } from 'drizzle-orm'
import { getAddress, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { createTestInvoice } from '../../../test/invoice-test-kit.ts'
import { usePaymentScene } from '../../../test/payment-scene.ts'
import { createX402Link, readPaymentRequired, requirementOn } from '../../../test/x402-pay-test-kit.ts'
import { deposits, invoices, links, x402Offers } from '../../db/schema.ts'

// GET /x402/pay/{slug}[/{invoiceId}] without a payment (docs/decisions/0031): the 402 and its offer.

const scene = usePaymentScene()
const receiverIndex = 2

describe('GET /x402/pay/{slug} without a payment', { timeout: 90_000 }, () => {
  it('answers 402 with one exact requirement per chain: the receiver on Base, a deposit address elsewhere', async () => {
    const link = await createX402Link(scene, receiverIndex, '5')
    const url = `/x402/pay/${link.slug}`
    const response = await scene.testApp.app.inject({ method: 'GET', url })
    expect(response.statusCode, response.body).toBe(402)
    expect(response.headers['cache-control']).toBe('no-store')
    const required = await readPaymentRequired(scene.testApp.app, url)
    // The header is what @x402/core's own schema accepts, and the body says the same.
    expect(PaymentRequiredSchema.safeParse(required).success).toBe(true)
    expect(x402PaymentRequiredSchema.parse(response.json())).toEqual(required)
    expect(required.x402Version).toBe(2)
    expect(required.resource.url).toBe(`${scene.testApp.app.config.publicOrigin}${url}`)
    expect(required.accepts.map((requirement) => requirement.network).sort()).toEqual([
      'eip155:42161',
      'eip155:43114',
      'eip155:8453',
    ])
    const base = requirementOn(required, 8453)
    expect(base).toEqual({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: getAddress(scene.devnet.token(8453, 'USDC')),
      amount: parseUnits('5', 6).toString(),
      payTo: getAddress(scene.devnet.account(receiverIndex).address),
      maxTimeoutSeconds: 120,
      extra: { name: expect.any(String), version: expect.any(String) },
    })
    const [deposit] = await scene.testApp.database.db
      .select()
      .from(deposits)
      .where(eq(deposits.linkId, link.id))
    for (const chainId of [43114, 42161]) {
      const other = requirementOn(required, chainId)
      expect(other.payTo).toBe(getAddress(deposit?.address ?? ''))
      expect(other.asset).toBe(getAddress(scene.devnet.token(chainId, 'USDC')))
      // What the bridge route costs on top: at least the amount.
      expect(BigInt(other.amount)).toBeGreaterThanOrEqual(parseUnits('5', 6))
    }
    // Signed offers (offer-receipt), by the instance's receipt key, one per requirement.
    const offers = extractOffersFromPaymentRequired(required)
    expect(offers).toHaveLength(3)
    const signer = scene.testApp.app.receiptSigner?.account.address
    for (const offer of offers) {
      if (offer.format !== 'eip712') throw new Error('not an EIP-712 offer')
      const verified = await verifyOfferSignatureEIP712(offer)
      expect(verified.signer).toBe(signer)
      expect(offer.payload.resourceUrl).toBe(required.resource.url)
    }
    expect(required.extensions?.['payment-identifier']).toMatchObject({ info: { required: false } })
  })

  it('answers a polling agent the same stored offer, without a new row or deposit', async () => {
    const link = await createX402Link(scene, receiverIndex, '3')
    const url = `/x402/pay/${link.slug}`
    const first = await readPaymentRequired(scene.testApp.app, url)
    const second = await readPaymentRequired(scene.testApp.app, url)
    expect(second.accepts).toEqual(first.accepts)
    const { db } = scene.testApp.database
    expect(await db.select().from(x402Offers).where(eq(x402Offers.linkId, link.id))).toHaveLength(1)
    expect(await db.select().from(deposits).where(eq(deposits.linkId, link.id))).toHaveLength(1)
  })

  it('takes ?amount= on a link without an amount, and refuses it missing or too precise', async () => {
    const link = await createX402Link(scene, receiverIndex)
    const { app } = scene.testApp
    const required = await readPaymentRequired(app, `/x402/pay/${link.slug}?amount=2.5`)
    expect(requirementOn(required, 8453).amount).toBe('2500000')
    expect(required.resource.url).toBe(
      `${scene.testApp.app.config.publicOrigin}/x402/pay/${link.slug}?amount=2.5`,
    )
    const missing = await app.inject({ method: 'GET', url: `/x402/pay/${link.slug}` })
    expect(missing.statusCode).toBe(422)
    expect(errorResponseSchema.parse(missing.json()).error.message).toBe(
      'This link has no amount: add ?amount= with a decimal amount of USDC, such as ?amount=5.',
    )
    const precise = await app.inject({ method: 'GET', url: `/x402/pay/${link.slug}?amount=1.0000001` })
    expect(precise.statusCode).toBe(422)
    const malformed = await app.inject({ method: 'GET', url: `/x402/pay/${link.slug}?amount=abc` })
    expect(malformed.statusCode).toBe(422)
  })

  it('answers 404 for an unknown or disabled link', async () => {
    const { app, database } = scene.testApp
    const unknown = await app.inject({ method: 'GET', url: '/x402/pay/no-such-link' })
    expect(unknown.statusCode).toBe(404)
    expect(errorResponseSchema.parse(unknown.json()).error.message).toBe('This link is unavailable.')
    const link = await createX402Link(scene, receiverIndex, '1')
    await database.db.update(links).set({ enabled: false }).where(eq(links.id, link.id))
    const disabled = await app.inject({ method: 'GET', url: `/x402/pay/${link.slug}` })
    expect(disabled.statusCode).toBe(404)
    expect(disabled.headers[x402Headers.paymentRequired.toLowerCase()]).toBeUndefined()
  })

  it("an invoice's resource asks for what remains due; a paid or unknown invoice is refused", async () => {
    const { invoice, linkId } = await createTestInvoice(scene.testApp, scene.devnet, {
      chainId: 8453,
      receiver: scene.devnet.account(receiverIndex).address,
      amount: '12',
    })
    const { db } = scene.testApp.database
    const [link] = await db.select().from(links).where(eq(links.id, linkId))
    const { app } = scene.testApp
    const url = `/x402/pay/${link?.aliasSlug}/${invoice.id}`
    expect(requirementOn(await readPaymentRequired(app, url), 8453).amount).toBe('12000000')
    await db
      .update(invoices)
      .set({ state: 'paid', amountPaidUnits: '12000000' })
      .where(eq(invoices.id, invoice.id))
    const paid = await app.inject({ method: 'GET', url })
    expect(paid.statusCode).toBe(422)
    expect(errorResponseSchema.parse(paid.json()).error.message).toBe(
      'This invoice is already paid: it takes no more payments.',
    )
    const unknown = await app.inject({ method: 'GET', url: `/x402/pay/${link?.aliasSlug}/inv_nothing` })
    expect(unknown.statusCode).toBe(404)
  })
})
