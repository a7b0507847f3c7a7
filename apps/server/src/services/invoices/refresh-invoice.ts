import type { InvoiceState } from '@quicklinks/core/api/invoices'
import type { WebhookEventType } from '@quicklinks/core/api/webhooks'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, isNotNull, isNull, ne } from 'drizzle-orm'
import { invoicePayments, invoices, invoiceTransitions, routeIntents } from '../../db/schema.ts'
import { writeWebhookEvent } from '../webhooks/webhook-outbox.ts'
import { decideInvoiceState } from './decide-invoice-state.ts'
import { readInvoiceWithLink } from './invoices-repository.ts'
import { toInvoiceResponse } from './to-invoice-response.ts'

/** The webhook event of each state an invoice can move to that merchants hear of. */
const invoiceEventTypes: Partial<Record<InvoiceState, WebhookEventType>> = {
  paid: 'invoice.paid',
  paid_over: 'invoice.paid_over',
  underpaid: 'invoice.underpaid',
  expired: 'invoice.expired',
  paid_late: 'invoice.paid_late',
}

/** What one refresh did to an invoice. */
export type InvoiceRefresh = {
  state: InvoiceState
  previousState: InvoiceState
  /** Intents credited by this refresh (none when another worker got there first). */
  creditedIntentIds: string[]
  amountPaidUnits: bigint
}

/**
 * Brings one invoice up to date with the verified records, in one transaction under its row lock
 * (docs/decisions/0025-invoice-states.md): every final, successful route intent of it not credited yet is credited
 * with its verified receiver credit (`to_amount_wei`, what the tracker read on chain; never a
 * client's number) through invoice_payments, whose primary key lets a credit happen once whichever
 * instance or round gets there first; the amount paid is the sum of those rows; the state is
 * decided from them, the payments still in flight, refunds and the clock (decideInvoiceState); a
 * change of state is stored in invoice_transitions with the intent that caused it (null for the
 * clock), with the owner's webhook event when `options.publicOrigin` is given. Idempotent: a second refresh with nothing new changes nothing. Answers undefined for an
 * unknown invoice; throws on database errors (the worker retries next round).
 */
export async function refreshInvoice(
  db: Database,
  invoiceId: string,
  nowMs: number,
  options: { publicOrigin?: string } = {},
): Promise<InvoiceRefresh | undefined> {
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update')
    if (!invoice) return undefined
    const ofInvoice = eq(routeIntents.invoiceId, invoiceId)

    const due = await tx
      .select({
        id: routeIntents.id,
        toAmountWei: routeIntents.toAmountWei,
        completedAt: routeIntents.completedAt,
        finalAt: routeIntents.finalAt,
      })
      .from(routeIntents)
      .leftJoin(invoicePayments, eq(invoicePayments.intentId, routeIntents.id))
      .where(
        and(
          ofInvoice,
          eq(routeIntents.status, 'success'),
          isNotNull(routeIntents.finalAt),
          isNotNull(routeIntents.toAmountWei),
          isNull(invoicePayments.intentId),
        ),
      )
    const creditedIntentIds: string[] = []
    for (const intent of due) {
      const credit = BigInt(intent.toAmountWei ?? '0')
      if (credit <= 0n) continue
      const inserted = await tx
        .insert(invoicePayments)
        .values({
          invoiceId,
          intentId: intent.id,
          amountUnits: credit.toString(),
          // When the tracker first saw the receiver credited: it decides paid against paid_late.
          arrivedAt: intent.completedAt ?? intent.finalAt ?? new Date(nowMs),
          createdAt: new Date(nowMs),
        })
        .onConflictDoNothing()
        .returning({ intentId: invoicePayments.intentId })
      if (inserted.length > 0) creditedIntentIds.push(intent.id)
    }

    const payments = await tx
      .select({ amountUnits: invoicePayments.amountUnits, arrivedAt: invoicePayments.arrivedAt })
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, invoiceId))
    let paidUnits = 0n
    let paidOnTimeUnits = 0n
    let lastArrival: Date | null = null
    for (const payment of payments) {
      const units = BigInt(payment.amountUnits)
      paidUnits += units
      if (payment.arrivedAt.getTime() <= invoice.expiresAt.getTime()) paidOnTimeUnits += units
      if (lastArrival === null || payment.arrivedAt > lastArrival) lastArrival = payment.arrivedAt
    }
    const [inFlight] = await tx
      .select({ id: routeIntents.id })
      .from(routeIntents)
      .where(
        and(
          ofInvoice,
          isNotNull(routeIntents.sourceBlockHash),
          isNull(routeIntents.finalAt),
          ne(routeIntents.statusRaw, 'failed_mismatch'),
        ),
      )
      .orderBy(desc(routeIntents.updatedAt))
      .limit(1)
    const [refund] = await tx
      .select({ id: routeIntents.id })
      .from(routeIntents)
      .where(and(ofInvoice, eq(routeIntents.isRefunded, true), isNotNull(routeIntents.finalAt)))
      .limit(1)

    const previousState = invoice.state
    const state = decideInvoiceState({
      amountUnits: BigInt(invoice.amountUnits),
      toleranceBps: invoice.toleranceBps,
      expiresAt: invoice.expiresAt,
      paidUnits,
      paidOnTimeUnits,
      isInFlight: inFlight !== undefined,
      hasRefund: refund !== undefined,
      nowMs,
    })
    const isPaid = state === 'paid' || state === 'paid_over' || state === 'paid_late'
    const hasChanged = state !== previousState || paidUnits !== BigInt(invoice.amountPaidUnits)
    if (hasChanged) {
      const now = new Date(nowMs)
      await tx
        .update(invoices)
        .set({
          state,
          amountPaidUnits: paidUnits.toString(),
          paidAt: isPaid ? (invoice.paidAt ?? lastArrival ?? now) : null,
          updatedAt: now,
        })
        .where(eq(invoices.id, invoiceId))
    }
    if (state !== previousState) {
      // The record that caused it: the payment just credited, else the one in flight, else the refund; none for the clock.
      const cause =
        creditedIntentIds.at(-1) ??
        (state === 'processing' ? inFlight?.id : state === 'refunded' ? refund?.id : undefined) ??
        null
      await tx.insert(invoiceTransitions).values({
        invoiceId,
        fromState: previousState,
        toState: state,
        intentId: cause,
        amountPaidUnits: paidUnits.toString(),
        createdAt: new Date(nowMs),
      })
      const eventType = invoiceEventTypes[state]
      if (eventType !== undefined && options.publicOrigin !== undefined) {
        // The owner's webhook event, in this transaction: the invoice as GET /api/invoices/{id} answers it.
        const found = await readInvoiceWithLink(tx, invoiceId)
        if (found !== undefined) {
          await writeWebhookEvent(tx, {
            userId: found.invoice.userId,
            type: eventType,
            data: toInvoiceResponse(found, options.publicOrigin),
            now: new Date(nowMs),
          })
        }
      }
    }
    return { state, previousState, creditedIntentIds, amountPaidUnits: paidUnits }
  })
}
