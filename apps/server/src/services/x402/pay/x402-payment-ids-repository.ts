import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, isNull } from 'drizzle-orm'
import { type X402StoredAnswer, x402PaymentIds } from '../../../db/schema.ts'

// The one module that reads and writes x402_payment_ids (docs/decisions/0031).

/** What claiming a payment-identifier found. */
export type X402PaymentIdClaim =
  /** The id is new: this request settles and stores its answer (or releases the id). */
  | { kind: 'claimed' }
  /** The same id and payload were answered before: send that answer again. */
  | { kind: 'answered'; answer: X402StoredAnswer }
  /** The same id and payload are being settled by another request right now. */
  | { kind: 'pending' }
  /** The id was used with another payload. */
  | { kind: 'conflict' }

/** Claims `id` for a payload with this SHA-256, or says who has it. */
export async function claimX402PaymentId(
  db: Database,
  id: string,
  payloadHash: string,
): Promise<X402PaymentIdClaim> {
  const inserted = await db
    .insert(x402PaymentIds)
    .values({ id, payloadHash })
    .onConflictDoNothing({ target: x402PaymentIds.id })
    .returning({ id: x402PaymentIds.id })
  if (inserted.length > 0) return { kind: 'claimed' }
  const [row] = await db.select().from(x402PaymentIds).where(eq(x402PaymentIds.id, id)).limit(1)
  // Released between the insert and this read: the caller asks again.
  if (!row) return { kind: 'pending' }
  if (row.payloadHash !== payloadHash) return { kind: 'conflict' }
  return row.answer === null ? { kind: 'pending' } : { kind: 'answered', answer: row.answer }
}

/** Stores the answer of a claimed id. */
export async function storeX402PaymentAnswer(
  db: Database,
  id: string,
  answer: X402StoredAnswer,
): Promise<void> {
  await db.update(x402PaymentIds).set({ answer, updatedAt: new Date() }).where(eq(x402PaymentIds.id, id))
}

/** Lets a claimed id go without an answer (the payment was refused): the client may try again with it. */
export async function releaseX402PaymentId(db: Database, id: string): Promise<void> {
  await db.delete(x402PaymentIds).where(and(eq(x402PaymentIds.id, id), isNull(x402PaymentIds.answer)))
}
