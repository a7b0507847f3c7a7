import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import { deposits, type X402Offer, x402Offers } from '../../../db/schema.ts'

// The one module that reads and writes x402_offers (docs/decisions/0031).

/** Which resource an offer is for: a link, or one of its invoices. */
export type X402OfferKey = { linkId: string; invoiceId: string | null }

const sameResource = (key: X402OfferKey) =>
  and(
    eq(x402Offers.linkId, key.linkId),
    key.invoiceId === null ? isNull(x402Offers.invoiceId) : eq(x402Offers.invoiceId, key.invoiceId),
  )

/** Stores an offer; answers the row. */
export async function insertX402Offer(
  db: Database,
  values: typeof x402Offers.$inferInsert,
): Promise<X402Offer> {
  const [row] = await db.insert(x402Offers).values(values).returning()
  if (!row) throw new Error('x402 offer not stored')
  return row
}

/** The newest offer of the resource for this amount still valid after `validAfter`, if any. */
export async function findReusableX402Offer(
  db: Database,
  key: X402OfferKey & { amountUnits: bigint },
  validAfter: Date,
): Promise<X402Offer | undefined> {
  const [row] = await db
    .select()
    .from(x402Offers)
    .where(
      and(
        sameResource(key),
        eq(x402Offers.amountUnits, key.amountUnits.toString()),
        gt(x402Offers.expiresAt, validAfter),
      ),
    )
    .orderBy(desc(x402Offers.createdAt))
    .limit(1)
  return row
}

/**
 * The deposit of the resource's newest offer for this amount, while it takes payments past
 * `validAfter`: a new offer pays into it again rather than making one more address to watch.
 */
export async function findReusableX402Deposit(
  db: Database,
  key: X402OfferKey & { amountUnits: bigint },
  validAfter: Date,
): Promise<{ id: string; address: string; expiresAt: Date } | undefined> {
  const [row] = await db
    .select({ id: deposits.id, address: deposits.address, expiresAt: deposits.expiresAt })
    .from(x402Offers)
    .innerJoin(deposits, eq(deposits.id, x402Offers.depositId))
    .where(
      and(
        sameResource(key),
        eq(x402Offers.amountUnits, key.amountUnits.toString()),
        isNotNull(x402Offers.depositId),
        gt(deposits.expiresAt, validAfter),
      ),
    )
    .orderBy(desc(x402Offers.createdAt))
    .limit(1)
  return row
}

/** The resource's offers still valid at `now`, newest first: what a paid request may have signed. */
export async function listLiveX402Offers(db: Database, key: X402OfferKey, now: Date): Promise<X402Offer[]> {
  return db
    .select()
    .from(x402Offers)
    .where(and(sameResource(key), gt(x402Offers.expiresAt, now)))
    .orderBy(desc(x402Offers.createdAt))
    .limit(50)
}
