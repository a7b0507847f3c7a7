import type { PaymentTotal } from '@quicklinks/core/api/payments'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, asc, eq, isNotNull, type SQL, sql } from 'drizzle-orm'
import { links, routeIntents } from '../../../db/schema.ts'
import { formatTokenAmount } from './list-payments.ts'
import { buildPaymentConditions, type PaymentFilters } from './payment-filters.ts'
import type { PaymentTokenResolver, StoredTokenRef } from './resolve-payment-tokens.ts'

/**
 * What the caller's payments matching `filters` delivered, per destination token: the sum of the
 * verified credits (`to_amount_wei`) of the successful payments whose success is final (deep
 * enough to trust); in-flight, failed and not-yet-final ones count nothing. Ordered by chain, then
 * token. Rejects when the database fails.
 */
export async function sumPaymentTotals(
  db: Database,
  filters: PaymentFilters,
  tokens: PaymentTokenResolver,
): Promise<PaymentTotal[]> {
  const conditions: SQL[] = [
    buildPaymentConditions(filters),
    eq(routeIntents.status, 'success'),
    isNotNull(routeIntents.finalAt),
    isNotNull(routeIntents.toAmountWei),
  ]
  const rows = await db
    .select({
      chainId: routeIntents.toChainId,
      token: routeIntents.toToken,
      amount: sql<string>`sum(${routeIntents.toAmountWei}::numeric)::text`,
      // Any one payment's quoted token names the group (they all name the same token).
      tokenRef: sql<StoredTokenRef>`min((${routeIntents.actions} -> -1 -> 'toToken')::text)::jsonb`,
    })
    .from(routeIntents)
    .innerJoin(links, eq(links.id, routeIntents.linkId))
    .where(and(...conditions))
    .groupBy(routeIntents.toChainId, routeIntents.toToken)
    .orderBy(asc(routeIntents.toChainId), asc(routeIntents.toToken))
  return Promise.all(
    rows.map(async (row) => {
      const token = await tokens.resolve(row.chainId, row.token, row.tokenRef)
      return {
        chainId: row.chainId,
        token: token.address,
        symbol: token.symbol,
        amount: formatTokenAmount(row.amount, token.decimals),
      }
    }),
  )
}
