import type { RouteRequest } from '@quicklinks/core/api/route-request'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { invoices } from '../../../db/schema.ts'
import { isNativeTokenAddress } from './routing-provider.ts'

function refuse(userMessage: string): AppError {
  return new AppError('VALIDATION_FAILED', { field: 'invoiceId', userMessage })
}

/**
 * Refuses a route that names an invoice it cannot pay (docs/api.md#route-invoice), before the
 * provider quotes it: 422 without a linkId, 404 for an unknown invoice, 422 when the invoice is
 * another link's, is already paid (paid, paid_over, paid_late) or refunded, is past its monitoring
 * window, or when toChain, toToken or toAddress is not the invoice's. Any part of what remains may
 * be paid: the amount is the quote's business, and only verified credits count.
 */
export async function assertRoutePaysInvoice(
  db: Database,
  request: Pick<RouteRequest, 'linkId' | 'invoiceId' | 'toChain' | 'toToken' | 'toAddress'>,
  nowMs = Date.now(),
): Promise<void> {
  if (request.invoiceId === null) return
  if (request.linkId === null) throw refuse('invoiceId needs the linkId of its link beside it.')
  // Read here rather than through the invoice services, which depend on this folder (no cycles).
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, request.invoiceId)).limit(1)
  if (!invoice) {
    throw new AppError('NOT_FOUND', {
      field: 'invoiceId',
      message: `Route asked for invoice ${request.invoiceId}, which does not exist`,
      userMessage: 'This invoice does not exist.',
    })
  }
  if (invoice.linkId !== request.linkId) throw refuse('This invoice belongs to another link.')
  if (invoice.state === 'paid' || invoice.state === 'paid_over' || invoice.state === 'paid_late') {
    throw refuse('This invoice is already paid: it takes no more payments.')
  }
  if (invoice.state === 'refunded') throw refuse('This invoice was refunded: it takes no more payments.')
  if (nowMs >= invoice.monitorUntil.getTime()) {
    throw refuse('This invoice has expired: it takes no more payments.')
  }
  const isSameToken =
    isNativeTokenAddress(invoice.tokenAddress) && isNativeTokenAddress(request.toToken)
      ? true
      : invoice.tokenAddress.toLowerCase() === request.toToken.toLowerCase()
  if (
    invoice.chainId !== request.toChain ||
    !isSameToken ||
    invoice.receiverAddress.toLowerCase() !== request.toAddress.toLowerCase()
  ) {
    throw refuse("The route does not pay this invoice: toChain, toToken and toAddress must be the invoice's.")
  }
}
