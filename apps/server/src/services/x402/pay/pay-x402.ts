import { createHash } from 'node:crypto'
import { x402Headers } from '@quicklinks/core/api/x402'
import { AppError } from '@quicklinks/core/app-error'
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from '@x402/core/http'
import { isPaymentPayloadV2 } from '@x402/core/schemas'
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import type { OfferReceiptIssuer } from '@x402/extensions/offer-receipt'
import { extractPaymentIdentifier } from '@x402/extensions/payment-identifier'
import type { X402StoredAnswer } from '../../../db/schema.ts'
import type { X402Resource } from './read-x402-resource.ts'
import { type SettleX402Context, settleX402 } from './settle-x402.ts'
import { issueX402Receipt } from './x402-offer-receipts.ts'
import { listLiveX402Offers } from './x402-offers-repository.ts'
import {
  claimX402PaymentId,
  releaseX402PaymentId,
  storeX402PaymentAnswer,
} from './x402-payment-ids-repository.ts'

/** An answer of the resource: status, x402 headers and JSON body. */
export type X402Answer = { status: number; headers: Record<string, string>; body: unknown }

export type PayX402Context = SettleX402Context & {
  issuer: OfferReceiptIssuer | null
  /** The 402 of this resource with `error` set (its current offer). */
  paymentRequired(error: string): Promise<X402Answer>
  nowMs: number
}

/** How long a request with a payment-identifier waits for a concurrent one settling it. */
const pendingWaitMs = 30_000

/**
 * A request with PAYMENT-SIGNATURE (docs/decisions/0031): decoded with `@x402/core/http`, checked
 * with `@x402/core/schemas`, matched against the resource's live offers
 * (`findMatchingRequirements`: what the payer signed), verified and settled through the
 * facilitator. Answers 200 with PAYMENT-RESPONSE and the payment's record; a payload matching no
 * offer, or refused by the facilitator, gets the 402 again with the library's reason as `error`
 * (a refused settlement adds PAYMENT-RESPONSE with `success: false`). With a payment-identifier,
 * the same id and payload get the stored answer without a second settlement; another payload
 * under that id is AppError CONFLICT (409).
 */
export async function payX402(
  context: PayX402Context,
  resource: X402Resource,
  resourceUrl: string,
  header: string,
): Promise<X402Answer> {
  let payload: PaymentPayload
  try {
    payload = decodePaymentSignatureHeader(header)
  } catch {
    return context.paymentRequired('Invalid payment signature header')
  }
  // Only x402 v2 payloads, whole (`@x402/core`'s schema): anything else is no payment of this resource.
  if (!isPaymentPayloadV2(payload)) return context.paymentRequired('invalid_payload')
  const paymentId = extractPaymentIdentifier(payload, true)
  if (paymentId === null) return payOnce(context, resource, resourceUrl, payload)

  const payloadHash = createHash('sha256').update(JSON.stringify(payload)).digest('hex')
  const waitUntil = Date.now() + pendingWaitMs
  for (;;) {
    const claim = await claimX402PaymentId(context.db, paymentId, payloadHash)
    if (claim.kind === 'answered') return fromStored(claim.answer)
    if (claim.kind === 'conflict') {
      throw new AppError('CONFLICT', {
        field: 'payment-identifier',
        message: `x402 payment-identifier ${paymentId} reused with another payload (x402_payment_id_conflict)`,
        userMessage: 'This payment-identifier was already used for another payment: use a new id.',
      })
    }
    if (claim.kind === 'claimed') break
    if (Date.now() > waitUntil) {
      throw new AppError('CONFLICT', {
        field: 'payment-identifier',
        userMessage: 'A payment with this payment-identifier is still being settled: ask again in a moment.',
      })
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  try {
    const answer = await payOnce(context, resource, resourceUrl, payload)
    if (answer.status === 200) {
      await storeX402PaymentAnswer(context.db, paymentId, {
        status: answer.status,
        paymentResponse: answer.headers[x402Headers.paymentResponse] ?? '',
        body: answer.body,
      })
    } else {
      await releaseX402PaymentId(context.db, paymentId)
    }
    return answer
  } catch (error) {
    await releaseX402PaymentId(context.db, paymentId)
    throw error
  }
}

async function payOnce(
  context: PayX402Context,
  resource: X402Resource,
  resourceUrl: string,
  payload: PaymentPayload,
): Promise<X402Answer> {
  const offers = await listLiveX402Offers(
    context.db,
    { linkId: resource.link.id, invoiceId: resource.invoiceId },
    new Date(context.nowMs),
  )
  let matched:
    | { offer: (typeof offers)[number]; requirement: (typeof offers)[number]['requirements'][number] }
    | undefined
  for (const offer of offers) {
    const requirement = context.server.findMatchingRequirements(offer.requirements, payload)
    if (requirement) {
      matched = { offer, requirement }
      break
    }
  }
  if (!matched) return context.paymentRequired('No matching payment requirements')

  const verified = await verifyOrRefusal(context, payload, matched.requirement)
  if (!verified.isValid) return context.paymentRequired(verified.invalidReason ?? 'invalid_payment')
  const outcome = await settleX402(context, { resource, ...matched, payload })
  if (!outcome.isSuccess) {
    const refusal = await context.paymentRequired(outcome.settled.errorReason ?? 'settlement_failed')
    return {
      ...refusal,
      headers: {
        ...refusal.headers,
        [x402Headers.paymentResponse]: encodePaymentResponseHeader(outcome.settled),
      },
    }
  }
  const { settled } = outcome
  const offerReceipt = await issueX402Receipt(context.issuer, {
    resourceUrl,
    payer: settled.payer ?? '',
    network: settled.network,
    transaction: settled.transaction,
  })
  const response: SettleResponse = {
    success: true,
    transaction: settled.transaction,
    network: settled.network,
    ...(settled.payer === undefined ? {} : { payer: settled.payer }),
    ...(offerReceipt === null
      ? {}
      : { extensions: { 'offer-receipt': { info: { receipt: offerReceipt } } } }),
  }
  return {
    status: 200,
    headers: { [x402Headers.paymentResponse]: encodePaymentResponseHeader(response) },
    body: { data: { ...outcome.data, offerReceipt } },
  }
}

/** The facilitator's verify answer; its refusals (thrown as VerifyError by some clients) as an answer too. */
async function verifyOrRefusal(
  context: PayX402Context,
  payload: PaymentPayload,
  requirement: Parameters<PayX402Context['server']['verifyPayment']>[1],
): Promise<{ isValid: boolean; invalidReason?: string | undefined }> {
  try {
    return await context.server.verifyPayment(payload, requirement)
  } catch (error) {
    const reason = (error as { invalidReason?: unknown }).invalidReason
    if (typeof reason !== 'string') throw error
    return { isValid: false, invalidReason: reason }
  }
}

function fromStored(answer: X402StoredAnswer): X402Answer {
  return {
    status: answer.status,
    headers: { [x402Headers.paymentResponse]: answer.paymentResponse },
    body: answer.body,
  }
}
