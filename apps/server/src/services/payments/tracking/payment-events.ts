import type { WebhookEventType } from '@quicklinks/core/api/webhooks'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
import type { RouteIntent } from '../../../db/schema.ts'
import { writeWebhookEvent } from '../../webhooks/webhook-outbox.ts'
import { type PaymentReadContext, toPayment } from '../history/list-payments.ts'
import type { StoredTokenRef } from '../history/resolve-payment-tokens.ts'
import type { PaymentEventWriter } from '../route/route-intents-repository.ts'

/** What an intent's change is judged on. */
type IntentState = Pick<RouteIntent, 'status' | 'statusRaw' | 'isRefunded' | 'sourceTxHash'>

const isInFlight = (status: string | null) => status === 'submitted' || status === 'bridging'

/**
 * The event of a payment's change, if any: `payment.processing` when its source transaction is
 * matched to the route (or a success goes back in flight after a reorg), `payment.succeeded` when
 * the chain shows the receiver credited, `payment.failed` when it fails (not for the payer's own
 * unrelated transaction, after which a matching one may still come), `payment.refunded` when its
 * funds went back to the payer.
 */
export function paymentEventType(before: IntentState, after: IntentState): WebhookEventType | null {
  if (after.isRefunded && !before.isRefunded) return 'payment.refunded'
  if (after.status !== before.status) {
    if (after.status === 'success') return 'payment.succeeded'
    if (after.status === 'failed') return after.statusRaw === 'failed_mismatch' ? null : 'payment.failed'
    if (isInFlight(after.status) && !isInFlight(before.status) && after.sourceTxHash !== null) {
      return 'payment.processing'
    }
  }
  if (isInFlight(after.status) && before.sourceTxHash === null && after.sourceTxHash !== null) {
    return 'payment.processing'
  }
  return null
}

/**
 * The payment event writer of an app: the payment object is the one GET /api/payments answers,
 * named with `readContext` (made once per event: it reads the routing catalogue, which is cached).
 */
export function createPaymentEventWriter(input: {
  db: Database
  readContext: () => Promise<PaymentReadContext>
}): PaymentEventWriter {
  return {
    async prepare(before, after, now) {
      const type = paymentEventType(before, after)
      if (type === null || after.linkId === null) return null
      // The link's owner and alias, only when the owner has an endpoint that wants this event.
      const owners = await input.db.execute<{ user_id: string; alias: string }>(sql`
        SELECT l.user_id, l.alias FROM links l
        WHERE l.id = ${after.linkId} AND EXISTS (
          SELECT 1 FROM webhook_endpoints e
          WHERE e.user_id = l.user_id AND e.enabled AND e.events @> ${JSON.stringify([type])}::jsonb
        )`)
      const owner = owners.rows[0]
      if (owner === undefined) return null
      const context = await input.readContext()
      const actions = Array.isArray(after.actions)
        ? (after.actions as { fromToken?: unknown; toToken?: unknown }[])
        : []
      const fromTokenRef = (actions[0]?.fromToken ?? null) as StoredTokenRef
      const toTokenRef = (actions.at(-1)?.toToken ?? null) as StoredTokenRef
      await context.tokens.resolve(after.fromChainId, after.fromToken, fromTokenRef)
      await context.tokens.resolve(after.toChainId, after.toToken, toTokenRef)
      const payment = toPayment({ ...after, linkName: owner.alias, fromTokenRef, toTokenRef }, context)
      return (tx) => writeWebhookEvent(tx, { userId: owner.user_id, type, data: payment, now })
    },
  }
}
