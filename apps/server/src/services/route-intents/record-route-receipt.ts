import { AppError } from '@quicklinks/core/app-error'
import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import { and, eq, isNull } from 'drizzle-orm'
import type { Database } from '../../db/create-database-client.ts'
import { routeIntents } from '../../db/schema.ts'
import { getUniqueViolation } from '../links/get-unique-violation.ts'

const hashPattern = /^0x[0-9a-fA-F]{64}$/

export type RouteReceipt = {
  intentId: string
  txHash: string
  /** SPEC's normalised status of the payment so far. */
  status: 'submitted' | 'bridging' | 'success' | 'failed'
}

/**
 * Records the hash of the transaction that pays a route intent and starts tracking it (the
 * tracker picks it up at once). Posting the same hash again is harmless. Throws AppError 422 for a
 * malformed hash, 404 for an unknown intent, 409 when the intent already has another hash or the
 * hash already pays another intent.
 */
export async function recordRouteReceipt(
  db: Database,
  intentId: string,
  txHash: unknown,
): Promise<RouteReceipt> {
  if (typeof txHash !== 'string' || !hashPattern.test(txHash.trim())) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'txHash',
      userMessage: 'txHash must be a transaction hash (0x followed by 64 hex digits).',
    })
  }
  const hash = txHash.trim().toLowerCase()
  const id = intentId.toLowerCase()
  if (!hashPattern.test(id)) throw notFound()
  const now = new Date()
  let updated: { statusRaw: string | null }[]
  try {
    updated = await db
      .update(routeIntents)
      .set({
        sourceTxHash: hash,
        statusRaw: 'submitted',
        status: 'submitted',
        submittedAt: now,
        nextCheckAt: now,
        updatedAt: now,
      })
      .where(and(eq(routeIntents.id, id), isNull(routeIntents.sourceTxHash)))
      .returning({ statusRaw: routeIntents.statusRaw })
  } catch (error) {
    if (getUniqueViolation(error)) {
      throw new AppError('CONFLICT', {
        userMessage: 'This transaction is already recorded for another payment.',
        field: 'txHash',
        cause: error,
      })
    }
    throw error
  }
  if (updated.length > 0) return { intentId: id, txHash: hash, status: 'submitted' }

  const [intent] = await db
    .select({ sourceTxHash: routeIntents.sourceTxHash, statusRaw: routeIntents.statusRaw })
    .from(routeIntents)
    .where(eq(routeIntents.id, id))
    .limit(1)
  if (!intent) throw notFound()
  if (intent.sourceTxHash !== hash) {
    throw new AppError('CONFLICT', {
      field: 'txHash',
      userMessage: 'This payment already has another transaction recorded.',
    })
  }
  return { intentId: id, txHash: hash, status: readTransactionStatus(intent.statusRaw).status }
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', { userMessage: 'Unknown route intent: build the route again.' })
}
