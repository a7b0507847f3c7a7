import type { PayStatus } from '@quicklinks/core/api/pay-status'
import type { SignedReceipt } from '@quicklinks/core/api/receipts'
import type { X402PaidResponse } from '@quicklinks/core/api/x402'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import type { x402ResourceServer } from '@x402/core/server'
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import { and, eq } from 'drizzle-orm'
import { depositTransfers, type X402Offer } from '../../../db/schema.ts'
import type { DepositSetup } from '../../payments/deposits/get-deposit-setup.ts'
import { readDepositOrThrow } from '../../payments/deposits/read-deposit.ts'
import { recordRouteReceipt } from '../../payments/route/record-route-receipt.ts'
import type { RoutingProvider } from '../../payments/route/routing-provider.ts'
import type { X402Resource } from './read-x402-resource.ts'
import { type ExactEvmPayload, storeX402Intent } from './store-x402-intent.ts'

/** How long a paid request follows its payment before it answers with the state so far. */
const followMs = 5_000
const lookAgainMs = 100

export type SettleX402Context = {
  db: Database
  provider: RoutingProvider
  server: x402ResourceServer
  deposits: DepositSetup | undefined
  requestId: string
  /** Looks at a payment at once (the tracker's trackNow). */
  trackNow(intentId: string): Promise<void>
  /** Wakes the deposit watcher's lane of a chain, so a transfer into a deposit address is seen at once. */
  wakeDeposits(chainId: number): void
  /** The payment's record as GET /api/pay/status shows it, null before it has one. */
  readPayment(intentId: string): Promise<PayStatus | null>
  /** The payment's signed receipt once it is final, else null. */
  readReceipt(intentId: string): Promise<SignedReceipt | null>
}

/** A settlement's outcome: the library's answer, and on success what the 200 body names. */
export type X402Settlement =
  | { settled: SettleResponse; isSuccess: false }
  | { settled: SettleResponse; isSuccess: true; data: Omit<X402PaidResponse['data'], 'offerReceipt'> }

/**
 * Settles a verified payment through the facilitator (docs/decisions/0031). On the link's own
 * chain the payment is first stored as a route intent, then its mined hash is recorded as the
 * intent's receipt and the tracker looks at once; across chains the transfer lands in the offer's
 * deposit address and the deposit watcher of that chain is woken. Either way the answer follows the
 * payment for up to 5 s. A refused settlement leaves a stored intent without a receipt (the
 * tracker's sweep deletes it). Throws what the facilitator throws besides its refusals.
 */
export async function settleX402(
  context: SettleX402Context,
  options: {
    resource: X402Resource
    offer: X402Offer
    requirement: PaymentRequirements
    payload: PaymentPayload
  },
): Promise<X402Settlement> {
  const { resource, offer, requirement, payload } = options
  const isDeposit =
    offer.depositId !== null &&
    requirement.payTo.toLowerCase() !== resource.link.receiverAddress.toLowerCase()
  const intentId = isDeposit
    ? null
    : await storeX402Intent(context.db, {
        resource,
        requirement,
        payload: payload.payload as ExactEvmPayload,
        providerName: context.provider.name,
        requestId: context.requestId,
      })
  const settled = await settleOrRefusal(context.server, payload, requirement)
  if (!settled.success) return { settled, isSuccess: false }
  const deadline = Date.now() + followMs
  if (intentId !== null) {
    await recordRouteReceipt(context.db, intentId, settled.transaction, { requestId: context.requestId })
    await followPayment(context, intentId, deadline)
    return {
      settled,
      isSuccess: true,
      data: {
        payment: await context.readPayment(intentId),
        deposit: null,
        receipt: await context.readReceipt(intentId),
      },
    }
  }
  return {
    settled,
    isSuccess: true,
    data: await followDeposit(context, offer, requirement, settled, deadline),
  }
}

/** The facilitator's settle answer; its refusals (thrown as SettleError by some clients) as an answer too. */
async function settleOrRefusal(
  server: x402ResourceServer,
  payload: PaymentPayload,
  requirement: PaymentRequirements,
): Promise<SettleResponse> {
  try {
    return await server.settlePayment(payload, requirement)
  } catch (error) {
    const reason = (error as { errorReason?: unknown }).errorReason
    if (typeof reason !== 'string') throw error
    return { success: false, errorReason: reason, transaction: '', network: requirement.network }
  }
}

/** Looks at the payment until it is final or `deadline` passes (the tracker verifies on chain). */
async function followPayment(context: SettleX402Context, intentId: string, deadline: number): Promise<void> {
  for (;;) {
    await withTimeout(context.trackNow(intentId), deadline - Date.now())
    const payment = await context.readPayment(intentId)
    const isFinal = payment !== null && ['delivered', 'failed', 'refunded'].includes(payment.state)
    if (isFinal || Date.now() + lookAgainMs >= deadline) return
    await new Promise((resolve) => setTimeout(resolve, lookAgainMs))
  }
}

/**
 * Wakes the deposit watcher and waits (until `deadline`) for the transfer of the settled hash to be
 * routed; answers the deposit's record and the payment once it has one.
 */
async function followDeposit(
  context: SettleX402Context,
  offer: X402Offer,
  requirement: PaymentRequirements,
  settled: SettleResponse,
  deadline: number,
): Promise<Omit<X402PaidResponse['data'], 'offerReceipt'>> {
  const setup = context.deposits
  const depositId = offer.depositId
  if (!setup || depositId === null) {
    throw new AppError('INTERNAL', {
      message: `x402 offer ${offer.id} pays a deposit without a deposit setup`,
    })
  }
  const chainId = Number(requirement.network.split(':')[1])
  const hash = settled.transaction.toLowerCase()
  let intentId: string | null = null
  for (;;) {
    context.wakeDeposits(chainId)
    const [transfer] = await context.db
      .select({ intentId: depositTransfers.intentId, state: depositTransfers.state })
      .from(depositTransfers)
      .where(and(eq(depositTransfers.depositId, depositId), eq(depositTransfers.txHash, hash)))
      .limit(1)
    intentId = transfer?.intentId ?? null
    if (intentId !== null || Date.now() + lookAgainMs >= deadline) break
    await new Promise((resolve) => setTimeout(resolve, lookAgainMs))
  }
  const deposit = await readDepositOrThrow(
    { db: context.db, provider: context.provider, setup, nowMs: Date.now() },
    depositId,
  )
  return {
    payment: intentId === null ? null : await context.readPayment(intentId),
    deposit,
    receipt: intentId === null ? null : await context.readReceipt(intentId),
  }
}

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))])
  clearTimeout(timer)
}
