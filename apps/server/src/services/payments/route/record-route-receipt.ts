import { AppError } from '@quicklinks/core/app-error'
import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, asc, eq, inArray } from 'drizzle-orm'
import { routeIntentReceipts, routeIntents } from '../../../db/schema.ts'
import { markRouteIntentSubmitted, mismatchStatusRaw } from './route-intents-repository.ts'

const hashPattern = /^0x[0-9a-fA-F]{64}$/
/** Posted hashes an intent keeps waiting on at most; a new one pushes out the oldest still unseen. */
export const maxPendingReceipts = 16

export type RouteReceipt = {
  intentId: string
  txHash: string
  /** The payment's state so far (docs/product.md#payment-states). */
  status: 'submitted' | 'bridging' | 'success' | 'failed'
}

/**
 * Records a hash posted for a route intent as a candidate and marks the intent for tracking. Anyone
 * may post (the pay page has no account), so nothing is believed here: the tracker checks each
 * candidate on chain, and only the payer's transaction of the route becomes the record's source.
 * A wrong hash posted first therefore never blocks the right one; an intent waits on at most
 * `maxPendingReceipts` unseen hashes (the oldest makes room). Posting a hash again is harmless.
 * The posting request's id (`options.requestId`) is stored on the intent for the workers' log lines.
 * `txHash` is well formed (the route's `txHashSchema` checked it). Throws AppError 404 for an
 * unknown intent, 409 when the intent's payment is already recorded with another transaction.
 */
export async function recordRouteReceipt(
  db: Database,
  intentId: string,
  txHash: string,
  options: { nowMs?: number; requestId?: string } = {},
): Promise<RouteReceipt> {
  const nowMs = options.nowMs ?? Date.now()
  const hash = txHash.trim().toLowerCase()
  const id = intentId.toLowerCase()
  if (!hashPattern.test(id)) throw notFound()
  const [intent] = await db
    .select({
      sourceTxHash: routeIntents.sourceTxHash,
      statusRaw: routeIntents.statusRaw,
      sourceBlockHash: routeIntents.sourceBlockHash,
    })
    .from(routeIntents)
    .where(eq(routeIntents.id, id))
    .limit(1)
  if (!intent) throw notFound()
  if (intent.sourceTxHash === hash) {
    return { intentId: id, txHash: hash, status: readTransactionStatus(intent.statusRaw).status }
  }
  // Paid by a mined transaction of the route: nothing else can pay it. Until then (not mined yet,
  // or dropped by a reorg and re-sent with a new hash) more hashes are welcome.
  const isPaid =
    intent.sourceTxHash !== null && intent.statusRaw !== mismatchStatusRaw && intent.sourceBlockHash !== null
  if (isPaid) {
    throw new AppError('CONFLICT', {
      field: 'txHash',
      userMessage: 'This payment already has its transaction recorded.',
    })
  }

  const now = new Date(nowMs)
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(routeIntentReceipts)
      .values({ intentId: id, txHash: hash, createdAt: now })
      .onConflictDoNothing({ target: [routeIntentReceipts.intentId, routeIntentReceipts.txHash] })
      .returning({ id: routeIntentReceipts.id })
    if (inserted.length > 0) {
      const pending = await tx
        .select({ id: routeIntentReceipts.id })
        .from(routeIntentReceipts)
        .where(and(eq(routeIntentReceipts.intentId, id), eq(routeIntentReceipts.state, 'pending')))
        .orderBy(asc(routeIntentReceipts.createdAt))
      const excess = pending.length - maxPendingReceipts
      if (excess > 0) {
        // Pending hashes were never seen on chain (a seen one is matched or rejected at once).
        await tx.delete(routeIntentReceipts).where(
          inArray(
            routeIntentReceipts.id,
            pending.slice(0, excess).map((row) => row.id),
          ),
        )
      }
    }
    await markRouteIntentSubmitted(tx, id, now, options.requestId)
  })
  return { intentId: id, txHash: hash, status: readTransactionStatus(intent.statusRaw ?? 'submitted').status }
}

export type ReceiptOutcome = RouteReceipt & {
  /** The hash is the intent's source transaction (matched, or the payer's own mismatch). */
  isSource: boolean
}

/**
 * What a posted hash came to after the tracker's first look: the intent's status when the hash is
 * its source, 'submitted' while the hash is still unseen, or AppError 422 with the reason when the
 * tracker rejected it.
 */
export async function readReceiptOutcome(
  db: Database,
  intentId: string,
  txHash: string,
): Promise<ReceiptOutcome> {
  const id = intentId.toLowerCase()
  const hash = txHash.trim().toLowerCase()
  const [row] = await db
    .select({
      state: routeIntentReceipts.state,
      reason: routeIntentReceipts.reason,
      sourceTxHash: routeIntents.sourceTxHash,
      statusRaw: routeIntents.statusRaw,
    })
    .from(routeIntentReceipts)
    .innerJoin(routeIntents, eq(routeIntents.id, routeIntentReceipts.intentId))
    .where(and(eq(routeIntentReceipts.intentId, id), eq(routeIntentReceipts.txHash, hash)))
    .limit(1)
  if (row?.state === 'rejected' && row.sourceTxHash !== hash) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'txHash',
      userMessage: row.reason ?? 'This transaction does not pay this route.',
    })
  }
  const isSource = row?.sourceTxHash === hash
  const status = isSource ? readTransactionStatus(row?.statusRaw).status : ('submitted' as const)
  return { intentId: id, txHash: hash, status, isSource }
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', { userMessage: 'Unknown route intent: build the route again.' })
}
