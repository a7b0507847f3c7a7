import type { InvoiceState } from '@quicklinks/core/api/invoices'
import { invoiceIdPattern } from '@quicklinks/core/api/invoices'
import { AppError } from '@quicklinks/core/app-error'
import { createValidationError } from '@quicklinks/core/parse-input-or-throw'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { isLinkId } from '../links/get-owned-link-or-throw.ts'
import {
  type InvoiceCursor,
  type InvoiceWithLink,
  listInvoicesWithLinks,
  readInvoiceWithLink,
} from './invoices-repository.ts'

export const defaultInvoicePageSize = 20
export const maxInvoicePageSize = 100

function notFound(id: string, userMessage = 'Invoice not found.'): AppError {
  return new AppError('NOT_FOUND', { message: `Invoice ${id} not found`, userMessage })
}

/** The user's invoice. Throws AppError NOT_FOUND for a malformed or unknown id and for another user's invoice alike. */
export async function getOwnedInvoiceOrThrow(
  db: Database,
  input: { userId: string; id: string },
): Promise<InvoiceWithLink> {
  if (!invoiceIdPattern.test(input.id)) throw notFound(input.id)
  const row = await readInvoiceWithLink(db, input.id, input.userId)
  if (!row) throw notFound(input.id)
  return row
}

/**
 * Any invoice by id, for its payer: throws AppError NOT_FOUND ('This invoice is unavailable.') for
 * a malformed or unknown id and for an invoice whose link its owner turned off.
 */
export async function getPublicInvoiceOrThrow(db: Database, id: string): Promise<InvoiceWithLink> {
  const unavailable = 'This invoice is unavailable.'
  if (!invoiceIdPattern.test(id)) throw notFound(id, unavailable)
  const row = await readInvoiceWithLink(db, id)
  if (!row?.link.enabled) throw notFound(id, unavailable)
  return row
}

/** The opaque cursor of the page after `row`. */
export function encodeInvoiceCursor(row: InvoiceWithLink): string {
  return Buffer.from(`${row.invoice.createdAt.toISOString()}|${row.invoice.id}`).toString('base64url')
}

function decodeInvoiceCursorOrThrow(cursor: string): InvoiceCursor {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  const createdAt = new Date(time ?? '')
  if (id === undefined || !invoiceIdPattern.test(id) || Number.isNaN(createdAt.getTime())) {
    throw createValidationError('cursor', 'is not a cursor this list gave out; start again without it')
  }
  return { createdAt, id }
}

/**
 * A page of the user's invoices, newest first, of one link or state when asked, and the cursor of
 * the next page (null on the last). Throws AppError VALIDATION_FAILED naming `cursor` or `limit`.
 */
export async function listInvoices(
  db: Database,
  query: {
    userId: string
    linkId?: string | undefined
    state?: InvoiceState | undefined
    cursor?: string | undefined
    limit?: number | undefined
  },
): Promise<{ rows: InvoiceWithLink[]; nextCursor: string | null }> {
  const limit = query.limit ?? defaultInvoicePageSize
  if (!Number.isInteger(limit) || limit < 1 || limit > maxInvoicePageSize) {
    throw createValidationError('limit', `must be a whole number from 1 to ${maxInvoicePageSize}`)
  }
  // A link id that cannot exist has no invoices (as another user's link has none for this user).
  if (query.linkId !== undefined && !isLinkId(query.linkId)) return { rows: [], nextCursor: null }
  const rows = await listInvoicesWithLinks(db, {
    userId: query.userId,
    linkId: query.linkId?.toLowerCase(),
    state: query.state,
    cursor: query.cursor === undefined ? undefined : decodeInvoiceCursorOrThrow(query.cursor),
    limit,
  })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return { rows: page, nextCursor: rows.length > limit && last ? encodeInvoiceCursor(last) : null }
}
