import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { invoicePayments, invoices, routeIntents } from '../../db/schema.ts'
import type { Worker } from '../workers/start-workers.ts'
import { refreshInvoice } from './refresh-invoice.ts'

/** Invoices one round brings up to date at most, per kind of reason. */
const invoicesPerRound = 100

export type CreateInvoiceWorkerOptions = {
  db: Database
  logger: FastifyBaseLogger
  /** The invoices' public origin: given, every state change merchants hear of is a webhook event. */
  publicOrigin?: string
  /** Epoch ms; tests move it. */
  now?: () => number
}

/** The worker's name (its lane is ''). */
export const invoiceWorkerName = 'invoices'

/**
 * The invoice worker (docs/decisions/0025-invoice-states.md): each round finds the invoices whose records moved on
 * (a final, successful payment of it not credited yet; a payment of it in flight or refunded while
 * it waits for one; a processing invoice; an open one past expiresAt) and refreshes each in its own
 * transaction under its row lock (refreshInvoice). Everything it needs is in the database, so a
 * crash loses no credit: the next round, on any instance, credits it; two rounds racing on the same
 * invoice credit each payment once.
 */
export function createInvoiceWorker(options: CreateInvoiceWorkerOptions): Worker {
  const now = options.now ?? Date.now
  return {
    name: invoiceWorkerName,
    async runOnce() {
      const ids = await listInvoicesToRefresh(options.db, now())
      if (ids.length === 0) return 'idle'
      for (const id of ids) {
        try {
          const refresh = await refreshInvoice(
            options.db,
            id,
            now(),
            options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin },
          )
          if (refresh && refresh.state !== refresh.previousState) {
            options.logger.info(
              {
                invoiceId: id,
                from: refresh.previousState,
                to: refresh.state,
                credited: refresh.creditedIntentIds,
              },
              'Invoice state changed',
            )
          }
        } catch (error) {
          options.logger.warn(
            { err: error, invoiceId: id },
            'Refreshing an invoice failed; retrying next round',
          )
        }
      }
    },
  }
}

/** The ids of the invoices a round refreshes, each once. */
export async function listInvoicesToRefresh(db: Database, nowMs: number): Promise<string[]> {
  const toCredit = db
    .selectDistinct({ id: routeIntents.invoiceId })
    .from(routeIntents)
    .leftJoin(invoicePayments, eq(invoicePayments.intentId, routeIntents.id))
    .where(
      and(
        isNotNull(routeIntents.invoiceId),
        eq(routeIntents.status, 'success'),
        isNotNull(routeIntents.finalAt),
        isNull(invoicePayments.intentId),
      ),
    )
    .limit(invoicesPerRound)
  // Payments in flight, or refunded, of invoices not yet showing it (processing ones are re-read below).
  const moving = db
    .selectDistinct({ id: routeIntents.invoiceId })
    .from(routeIntents)
    .innerJoin(invoices, eq(invoices.id, routeIntents.invoiceId))
    .where(
      or(
        and(
          isNotNull(routeIntents.sourceBlockHash),
          isNull(routeIntents.finalAt),
          inArray(invoices.state, ['open', 'expired', 'underpaid']),
        ),
        and(
          eq(routeIntents.isRefunded, true),
          isNotNull(routeIntents.finalAt),
          inArray(invoices.state, ['open', 'processing', 'expired']),
        ),
      ),
    )
    .limit(invoicesPerRound)
  const waiting = db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      or(
        eq(invoices.state, 'processing'),
        and(eq(invoices.state, 'open'), lte(invoices.expiresAt, new Date(nowMs))),
      ),
    )
    .limit(invoicesPerRound)
  const rows = [...(await toCredit), ...(await moving), ...(await waiting)]
  return [...new Set(rows.map((row) => row.id).filter((id): id is string => id !== null))]
}
