import type { InvoiceState } from '@quicklinks/core/api/invoices'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, lt, or } from 'drizzle-orm'
import { type Invoice, invoices, type Link, links } from '../../db/schema.ts'

// The one module that reads and writes invoices for the API (the crediting in credit-invoice.ts
// writes them under a row lock).

/** An invoice with the slug of its link (its public address is /pay/{slug}/{id}). */
export type InvoiceWithLink = { invoice: Invoice; link: Pick<Link, 'aliasSlug' | 'alias' | 'enabled'> }

const linkColumns = { aliasSlug: links.aliasSlug, alias: links.alias, enabled: links.enabled }

/** Stores a new invoice. Throws on database errors. */
export async function insertInvoice(db: Database, values: typeof invoices.$inferInsert): Promise<Invoice> {
  const [row] = await db.insert(invoices).values(values).returning()
  if (!row) throw new Error('Insert into invoices returned no row')
  return row
}

/** An invoice by id with its link, or undefined; only the owner's when `userId` is given. */
export async function readInvoiceWithLink(
  db: Database,
  id: string,
  userId?: string,
): Promise<InvoiceWithLink | undefined> {
  const [row] = await db
    .select({ invoice: invoices, link: linkColumns })
    .from(invoices)
    .innerJoin(links, eq(links.id, invoices.linkId))
    .where(userId === undefined ? eq(invoices.id, id) : and(eq(invoices.id, id), eq(invoices.userId, userId)))
    .limit(1)
  return row
}

/** An invoice by id, or undefined. */
export async function readInvoice(db: Database, id: string): Promise<Invoice | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1)
  return row
}

/** Where a page of the owner's list starts: after this invoice (newest first). */
export type InvoiceCursor = { createdAt: Date; id: string }

/**
 * A page of a user's invoices, newest first (created_at, then id), optionally of one link or
 * state, after `cursor`; `limit + 1` rows are read so the caller knows whether more follow.
 */
export async function listInvoicesWithLinks(
  db: Database,
  filter: {
    userId: string
    linkId?: string | undefined
    state?: InvoiceState | undefined
    cursor?: InvoiceCursor | undefined
    limit: number
  },
): Promise<InvoiceWithLink[]> {
  const { cursor } = filter
  return db
    .select({ invoice: invoices, link: linkColumns })
    .from(invoices)
    .innerJoin(links, eq(links.id, invoices.linkId))
    .where(
      and(
        eq(invoices.userId, filter.userId),
        filter.linkId === undefined ? undefined : eq(invoices.linkId, filter.linkId),
        filter.state === undefined ? undefined : eq(invoices.state, filter.state),
        cursor === undefined
          ? undefined
          : or(
              lt(invoices.createdAt, cursor.createdAt),
              and(eq(invoices.createdAt, cursor.createdAt), lt(invoices.id, cursor.id)),
            ),
      ),
    )
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(filter.limit + 1)
}
