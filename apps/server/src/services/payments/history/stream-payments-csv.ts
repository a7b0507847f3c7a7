import { type Payment, paymentCsvColumns } from '@quicklinks/core/api/payments'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { listPaymentPage, type PaymentReadContext } from './list-payments.ts'
import type { PaymentFilters } from './payment-filters.ts'

/** Rows read per query while exporting: the most the export holds at once. */
export const paymentCsvPageSize = 1000

/** A spreadsheet reads a cell starting with one of these as a formula (OWASP CSV injection). */
const formulaStart = /^[=+\-@\t\r]/

/**
 * One CSV cell (RFC 4180): a text a spreadsheet would run as a formula gets a leading `'`
 * (OWASP's advice), then a cell holding a comma, quote or line break is quoted with its quotes
 * doubled.
 */
export function toCsvCell(value: string | number | null): string {
  if (value === null) return ''
  const text = String(value)
  // Numbers are ours (chain ids) and never negative; only text can carry a formula.
  const safe = typeof value === 'string' && formulaStart.test(text) ? `'${text}` : text
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** One payment as a CSV line in `paymentCsvColumns` order, CRLF-terminated (RFC 4180). */
export function toPaymentCsvLine(payment: Payment): string {
  const cells: Record<(typeof paymentCsvColumns)[number], string | number | null> = {
    created_at: payment.createdAt,
    completed_at: payment.completedAt,
    state: payment.state,
    link_id: payment.linkId,
    link_name: payment.linkName,
    invoice_id: payment.invoiceId,
    payer: payment.payer,
    route_kind: payment.routeKind,
    provider: payment.provider,
    source_chain_id: payment.sourceChainId,
    source_tx_hash: payment.sourceTxHash,
    from_token: payment.fromToken.address,
    from_symbol: payment.fromToken.symbol,
    amount_in: payment.amountIn,
    dest_chain_id: payment.destChainId,
    dest_tx_hash: payment.destTxHash,
    to_token: payment.toToken.address,
    to_symbol: payment.toToken.symbol,
    amount_received: payment.amountReceived,
    intent_id: payment.intentId,
  }
  return `${paymentCsvColumns.map((column) => toCsvCell(cells[column])).join(',')}\r\n`
}

/**
 * The CSV export (docs/api.md#payments-export): the header line, then one line per payment
 * matching `filters`, newest first, read page by page through the history's cursor, so memory
 * stays at one page whatever the number of rows; the next page is read only when the consumer
 * asks for more (an HTTP response under back-pressure). Rejects when the database fails.
 */
export async function* streamPaymentsCsv(
  db: Database,
  filters: PaymentFilters,
  context: PaymentReadContext,
  options: { pageSize?: number } = {},
): AsyncGenerator<string> {
  yield `${paymentCsvColumns.join(',')}\r\n`
  let cursor: string | undefined
  do {
    const page = await listPaymentPage(
      db,
      filters,
      { cursor, limit: options.pageSize ?? paymentCsvPageSize },
      context,
    )
    // One chunk per page: far fewer writes than one per line, and still one page in memory.
    if (page.payments.length > 0) yield page.payments.map(toPaymentCsvLine).join('')
    cursor = page.nextCursor ?? undefined
  } while (cursor !== undefined)
}
