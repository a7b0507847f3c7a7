import { x402Headers, x402PaidResponseSchema } from '@quicklinks/core/api/x402'
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequired } from '@x402/core/types'
import { eip3009ABI } from '@x402/evm'
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier'
import { eq } from 'drizzle-orm'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { usePaymentScene } from '../../../test/payment-scene.ts'
import {
  createX402Link,
  readPaymentRequired,
  readRefusal,
  requirementOn,
  sendPayment,
  signPayment,
} from '../../../test/x402-pay-test-kit.ts'
import { routeIntents } from '../../db/schema.ts'

// What the resource refuses (issue 34, docs/decisions/0031), each with the reason @x402/evm's
// facilitator (or x402's resource server) gives, and nothing moving on chain; and a
// payment-identifier making a retried request idempotent.

const scene = usePaymentScene()
const receiverIndex = 2
const payers = { refused: 6, idempotent: 7 } as const
const baseUsdc = () => scene.devnet.token(8453, 'USDC')

/** The receiver's and the payer's Base USDC, and whether the payload's authorization was used. */
async function readChainState(payerIndex: number, payload?: PaymentPayload) {
  const payer = scene.devnet.account(payerIndex).address
  const authorization = (payload?.payload as { authorization?: { nonce: `0x${string}` } } | undefined)
    ?.authorization
  return {
    receiver: await scene.devnet.balanceOf(8453, baseUsdc(), scene.devnet.account(receiverIndex).address),
    payer: await scene.devnet.balanceOf(8453, baseUsdc(), payer),
    isNonceUsed: authorization
      ? await scene.devnet.publicClient(8453).readContract({
          address: baseUsdc(),
          abi: eip3009ABI,
          functionName: 'authorizationState',
          args: [payer, authorization.nonce],
        })
      : false,
  }
}

describe('refused x402 payments: the reason, and nothing moves on chain', { timeout: 150_000 }, () => {
  const account = () => scene.devnet.account(payers.refused)
  let url = ''
  let required: PaymentRequired

  /** Sends `payload`, expects a 402 with `reason` and the chain as it was. */
  async function expectRefused(payload: PaymentPayload, reason: string) {
    const before = await readChainState(payers.refused, payload)
    const response = await sendPayment(scene.testApp.app, url, payload)
    expect(readRefusal(response)).toBe(reason)
    expect(await readChainState(payers.refused, payload)).toEqual(before)
  }

  it('pays once, then refuses the same PAYMENT-SIGNATURE replayed', async () => {
    const link = await createX402Link(scene, receiverIndex, '3')
    url = `/x402/pay/${link.slug}`
    required = await readPaymentRequired(scene.testApp.app, url)
    const payload = await signPayment(account(), required, 8453)
    const before = await readChainState(payers.refused, payload)
    const paid = await sendPayment(scene.testApp.app, url, payload)
    expect(paid.statusCode, paid.body).toBe(200)
    const after = await readChainState(payers.refused, payload)
    expect(after.receiver - before.receiver).toBe(parseUnits('3', 6))
    expect(after.isNonceUsed).toBe(true)

    const replayed = await sendPayment(scene.testApp.app, url, payload)
    expect(readRefusal(replayed)).toBe('invalid_exact_evm_nonce_already_used')
    expect(await readChainState(payers.refused, payload)).toEqual(after)
  })

  it('refuses an authorization for 1 unit less than the offer', async () => {
    const amount = BigInt(requirementOn(required, 8453).amount)
    const payload = await signPayment(account(), required, 8453, { amount: (amount - 1n).toString() })
    // @x402/evm 2.27.0's exact facilitator names this one with the older spelling (ErrAuthorizationValueMismatch).
    await expectRefused(payload, 'invalid_exact_evm_payload_authorization_value_mismatch')
  })

  it('refuses an authorization paying another address than the offer', async () => {
    const payload = await signPayment(account(), required, 8453, { payTo: scene.devnet.account(8).address })
    await expectRefused(payload, 'invalid_exact_evm_recipient_mismatch')
  })

  it('refuses an authorization past its validBefore', async () => {
    const payload = await signPayment(account(), required, 8453, { maxTimeoutSeconds: -60 })
    await expectRefused(payload, 'invalid_exact_evm_payload_authorization_valid_before')
  })

  it('refuses a payment on a chain the offer does not name', async () => {
    const base = requirementOn(required, 8453)
    const elsewhere = { ...base, network: 'eip155:10' as const }
    const offered: PaymentRequired = { ...required, accepts: [...required.accepts, elsewhere] }
    const payload = { ...(await signPayment(account(), offered, 10)), accepted: elsewhere }
    await expectRefused(payload, 'No matching payment requirements')
  })

  it('refuses a header that is not a payment', async () => {
    const response = await scene.testApp.app.inject({
      method: 'GET',
      url,
      headers: { [x402Headers.paymentSignature]: 'not base64 json' },
    })
    expect(readRefusal(response)).toBe('Invalid payment signature header')
  })
})

describe('payment-identifier', { timeout: 150_000 }, () => {
  it('two identical requests with one id settle once and get the same answer; another payload with it is 409', async () => {
    const link = await createX402Link(scene, receiverIndex, '2')
    const url = `/x402/pay/${link.slug}`
    const { app, database } = scene.testApp
    const required = await readPaymentRequired(app, url)
    const account = scene.devnet.account(payers.idempotent)
    const id = generatePaymentId()
    const withId = async () => {
      const payload = await signPayment(account, required, 8453)
      return { ...payload, extensions: appendPaymentIdentifierToExtensions({ ...payload.extensions }, id) }
    }
    const payload = await withId()
    const before = await readChainState(payers.idempotent, payload)
    const [first, second] = await Promise.all([
      sendPayment(app, url, payload),
      sendPayment(app, url, payload),
    ])
    expect(first.statusCode, first.body).toBe(200)
    expect(second.statusCode, second.body).toBe(200)
    const firstSettled = decodePaymentResponseHeader(
      String(first.headers[x402Headers.paymentResponse.toLowerCase()]),
    )
    const secondSettled = decodePaymentResponseHeader(
      String(second.headers[x402Headers.paymentResponse.toLowerCase()]),
    )
    expect(secondSettled).toEqual(firstSettled)
    expect(second.json()).toEqual(first.json())
    // Once on chain, one record.
    const after = await readChainState(payers.idempotent, payload)
    expect(after.receiver - before.receiver).toBe(parseUnits('2', 6))
    expect(before.payer - after.payer).toBe(parseUnits('2', 6))
    const records = await database.db
      .select()
      .from(routeIntents)
      .where(eq(routeIntents.sourceTxHash, firstSettled.transaction.toLowerCase()))
    expect(records).toHaveLength(1)
    expect(x402PaidResponseSchema.parse(first.json()).data.payment?.intentId).toBe(records[0]?.id)

    // A third time, later: the stored answer again.
    const third = await sendPayment(app, url, payload)
    expect(third.statusCode).toBe(200)
    expect(third.json()).toEqual(first.json())

    const other = await withId()
    const conflict = await app.inject({
      method: 'GET',
      url,
      headers: { [x402Headers.paymentSignature]: encodePaymentSignatureHeader(other) },
    })
    expect(conflict.statusCode).toBe(409)
    expect(conflict.json().error).toMatchObject({ code: 'CONFLICT', field: 'payment-identifier' })
    expect(await readChainState(payers.idempotent, other)).toMatchObject({
      receiver: after.receiver,
      isNonceUsed: false,
    })
  })
})
