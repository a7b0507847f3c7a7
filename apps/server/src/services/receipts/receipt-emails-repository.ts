import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, sql } from 'drizzle-orm'
import { type ReceiptEmail, type RouteIntent, receiptEmails, routeIntents } from '../../db/schema.ts'

// The receipt e-mail outbox (receipt_emails): what the sweep, the payer's form and the sender
// write and read. Only this module touches the table.

/** A claimed row is left alone by other senders (and instances) this long. */
export const receiptEmailLeaseMs = 60_000
/** Rows one send round takes, at most. */
const rowsPerRound = 20
/** Payments the sweep looks at per round, at most. */
const intentsPerSweep = 100

/** The route intent of a receipt, or AppError NOT_FOUND for a malformed or unknown id. */
export async function getReceiptIntentOrThrow(db: Database, intentId: string): Promise<RouteIntent> {
  const id = intentId.trim().toLowerCase()
  const [intent] = /^0x[0-9a-f]{64}$/.test(id)
    ? await db.select().from(routeIntents).where(eq(routeIntents.id, id)).limit(1)
    : []
  if (!intent) {
    throw new AppError('NOT_FOUND', {
      message: `Receipt asked for unknown payment ${intentId.slice(0, 80)}`,
      userMessage: 'No payment has this id.',
    })
  }
  return intent
}

/**
 * Final successes since `since` that have no payee row yet (the sweep's work), oldest first, each
 * with the link owner's user (address and e-mail) when the link still exists, and whether the link
 * asks for payment notices (`links.notify_payments`; true when the link is gone, as before).
 */
export async function listUnqueuedPayments(
  db: Database,
  since: Date,
): Promise<
  { intentId: string; ownerAddress: string | null; ownerEmail: string | null; notifyPayments: boolean }[]
> {
  const result = await db.execute<{
    intent_id: string
    owner_address: string | null
    owner_email: string | null
    notify_payments: boolean | null
  }>(sql`
    SELECT ri.id AS intent_id, u.address AS owner_address, u.email AS owner_email,
      l.notify_payments AS notify_payments
    FROM route_intents ri
    LEFT JOIN links l ON l.id = ri.link_id
    LEFT JOIN users u ON u.id = l.user_id
    WHERE ri.status = 'success' AND ri.final_at IS NOT NULL AND ri.final_at >= ${since.toISOString()}
      AND NOT EXISTS (SELECT 1 FROM receipt_emails re WHERE re.intent_id = ri.id AND re.role = 'payee')
    ORDER BY ri.final_at
    LIMIT ${intentsPerSweep}`)
  return result.rows.map((row) => ({
    intentId: row.intent_id,
    ownerAddress: row.owner_address,
    ownerEmail: row.owner_email,
    notifyPayments: row.notify_payments !== false,
  }))
}

/**
 * Writes the payee's row of a payment (pending with the address, or skipped without one, with
 * `skipReason` as its last_error) unless one exists: the unique key makes a second instance's
 * sweep a no-op. Resolves whether it wrote.
 */
export async function insertPayeeReceiptEmail(
  db: Database,
  input: { intentId: string; email: string | null; skipReason?: string },
): Promise<boolean> {
  const rows = await db
    .insert(receiptEmails)
    .values({
      intentId: input.intentId,
      role: 'payee',
      email: input.email,
      state: input.email === null ? 'skipped' : 'pending',
      ...(input.email === null && input.skipReason !== undefined ? { lastError: input.skipReason } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: receiptEmails.id })
  return rows.length > 0
}

export type PayerReceiptEmailLimits = {
  /** Different addresses one payment's receipt may be sent to by the form. */
  perIntent: number
  /** Receipts the form may send one address in 24 hours, whatever the payments. */
  perAddressPerDay: number
}

/**
 * Queues one copy of a payment's receipt to `email` for the payer's form, within the limits, in
 * one transaction holding the payment's row, so concurrent requests cannot pass a limit together.
 * An address already queued for the payment is not queued twice (resolves false). Throws AppError
 * RATE_LIMITED when a limit is reached.
 */
export async function insertPayerReceiptEmail(
  db: Database,
  input: { intentId: string; email: string; requestedBy: string; nowMs: number },
  limits: PayerReceiptEmailLimits,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM route_intents WHERE id = ${input.intentId} FOR UPDATE`)
    const [existing] = await tx
      .select({ id: receiptEmails.id })
      .from(receiptEmails)
      .where(and(eq(receiptEmails.intentId, input.intentId), eq(receiptEmails.email, input.email)))
    if (existing) return false
    const counts = await tx.execute<{ per_intent: number; per_address: number }>(sql`
      SELECT
        (SELECT count(*)::int FROM receipt_emails WHERE intent_id = ${input.intentId} AND role = 'payer') AS per_intent,
        (SELECT count(*)::int FROM receipt_emails WHERE email = ${input.email} AND role = 'payer'
           AND created_at > ${new Date(input.nowMs - 24 * 60 * 60_000).toISOString()}) AS per_address`)
    const row = counts.rows[0]
    if ((row?.per_intent ?? 0) >= limits.perIntent) {
      throw new AppError('RATE_LIMITED', {
        message: `Receipt of ${input.intentId} already sent to ${limits.perIntent} addresses`,
        userMessage: `This receipt was already sent to ${limits.perIntent} addresses, the most it can be.`,
      })
    }
    if ((row?.per_address ?? 0) >= limits.perAddressPerDay) {
      throw new AppError('RATE_LIMITED', {
        message: 'Receipt form: the address had its daily share of receipts',
        userMessage: 'That address has received as many receipts as it can today. Try again tomorrow.',
      })
    }
    await tx.insert(receiptEmails).values({
      intentId: input.intentId,
      role: 'payer',
      email: input.email,
      requestedBy: input.requestedBy,
      createdAt: new Date(input.nowMs),
      nextAttemptAt: new Date(input.nowMs),
    })
    return true
  })
}

/**
 * Leases the due rows (pending and due, or `sending` whose sender's lease ran out after a crash) in
 * one statement with `FOR UPDATE SKIP LOCKED`, so two senders never take the same row.
 */
export async function claimDueReceiptEmails(db: Database, nowMs: number): Promise<ReceiptEmail[]> {
  const now = new Date(nowMs).toISOString()
  const leaseEnd = new Date(nowMs + receiptEmailLeaseMs).toISOString()
  const result = await db.execute<{ id: string }>(sql`
    UPDATE receipt_emails SET state = 'sending', locked_until = ${leaseEnd}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM receipt_emails
      WHERE (state = 'pending' AND next_attempt_at <= ${now})
         OR (state = 'sending' AND locked_until < ${now})
      ORDER BY next_attempt_at
      LIMIT ${rowsPerRound}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)
  const ids = result.rows.map((row) => row.id)
  if (ids.length === 0) return []
  return db
    .select()
    .from(receiptEmails)
    .where(
      sql`${receiptEmails.id} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
}

/** Marks a claimed row's outcome: sent, back to pending at `nextAttemptAt`, or given up. */
export async function settleReceiptEmail(
  db: Database,
  id: string,
  outcome:
    | { state: 'sent'; nowMs: number }
    | { state: 'pending'; nextAttemptMs: number; error: string }
    | { state: 'failed' | 'skipped'; error: string },
): Promise<void> {
  const patch =
    outcome.state === 'sent'
      ? { state: 'sent', sentAt: new Date(outcome.nowMs), lockedUntil: null }
      : outcome.state === 'pending'
        ? {
            state: 'pending',
            nextAttemptAt: new Date(outcome.nextAttemptMs),
            lastError: outcome.error,
            lockedUntil: null,
          }
        : { state: outcome.state, lastError: outcome.error, lockedUntil: null }
  await db.update(receiptEmails).set(patch).where(eq(receiptEmails.id, id))
}
