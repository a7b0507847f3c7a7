import type { PaymentTotal } from '@quicklinks/core/api/payments'
import { isNativeTokenAddress, nativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, gte, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm'
import { links, paymentDailyTotals, routeIntents } from '../../../db/schema.ts'
import { formatTokenAmount } from './list-payments.ts'
import { buildPaymentConditions, type PaymentFilters } from './payment-filters.ts'
import type { PaymentTokenResolver } from './resolve-payment-tokens.ts'

const dayMs = 24 * 60 * 60 * 1000
type Sums = Map<string, { chainId: number; token: string; amount: bigint }>

function addRows(sums: Sums, rows: { chainId: number; token: string; amount: string | null }[]): void {
  for (const row of rows) {
    const key = `${row.chainId}:${row.token}`
    const entry = sums.get(key) ?? { chainId: row.chainId, token: row.token, amount: 0n }
    entry.amount += BigInt(row.amount ?? '0')
    sums.set(key, entry)
  }
}

/** Sums of the counted payments in route_intents itself (an invoice, or the edge of a day). */
async function sumFromPayments(db: Database, filters: PaymentFilters, sums: Sums): Promise<void> {
  const rows = await db
    .select({
      chainId: routeIntents.toChainId,
      token: routeIntents.toToken,
      amount: sql<string | null>`sum(${routeIntents.toAmountWei}::numeric)::text`,
    })
    .from(routeIntents)
    .innerJoin(links, eq(links.id, routeIntents.linkId))
    .where(
      and(
        buildPaymentConditions({ ...filters, state: 'success' }),
        isNotNull(routeIntents.finalAt),
        sql`${routeIntents.toAmountWei} ~ '^[0-9]{1,78}$'`,
      ),
    )
    .groupBy(routeIntents.toChainId, routeIntents.toToken)
  addRows(sums, rows)
}

/** Sums of whole UTC days [fromDay, toDay) from payment_daily_totals (kept by a trigger). */
async function sumFromDays(
  db: Database,
  filters: PaymentFilters,
  days: { fromDay?: Date; toDay?: Date },
  sums: Sums,
): Promise<void> {
  const conditions: (SQL | undefined)[] = [eq(links.userId, filters.userId)]
  if (filters.linkId !== undefined) conditions.push(eq(paymentDailyTotals.linkId, filters.linkId))
  if (filters.chainId !== undefined) conditions.push(eq(paymentDailyTotals.toChainId, filters.chainId))
  if (filters.token !== undefined) {
    conditions.push(
      isNativeTokenAddress(filters.token)
        ? inArray(paymentDailyTotals.toToken, [nativeTokenAddress.toLowerCase(), zeroAddress])
        : eq(paymentDailyTotals.toToken, filters.token),
    )
  }
  const toDate = (day: Date) => day.toISOString().slice(0, 10)
  if (days.fromDay !== undefined) conditions.push(gte(paymentDailyTotals.day, toDate(days.fromDay)))
  if (days.toDay !== undefined) conditions.push(lt(paymentDailyTotals.day, toDate(days.toDay)))
  const rows = await db
    .select({
      chainId: paymentDailyTotals.toChainId,
      token: paymentDailyTotals.toToken,
      amount: sql<string | null>`sum(${paymentDailyTotals.amount})::text`,
    })
    .from(paymentDailyTotals)
    .innerJoin(links, eq(links.id, paymentDailyTotals.linkId))
    .where(and(...conditions))
    .groupBy(paymentDailyTotals.toChainId, paymentDailyTotals.toToken)
  addRows(sums, rows)
}

/**
 * What the caller's payments matching `filters` delivered, per destination token: the sum of the
 * verified credits (`to_amount_wei`) of the successful payments whose success is final (deep
 * enough to trust); in-flight, failed and not-yet-final ones count nothing. Whole UTC days come
 * from payment_daily_totals (a few rows per link and day, whatever the number of payments); an
 * invoice's payments and the part of a day a `from`/`to` time cuts are summed from the payments
 * themselves. Ordered by chain, then token. Rejects when the database fails.
 */
export async function sumPaymentTotals(
  db: Database,
  filters: PaymentFilters,
  tokens: PaymentTokenResolver,
): Promise<PaymentTotal[]> {
  if (filters.state !== undefined && filters.state !== 'success') return []
  const sums: Sums = new Map()
  if (filters.invoiceId !== undefined) {
    await sumFromPayments(db, filters, sums)
  } else {
    // Whole days inside [from, to): the first midnight at or after `from`, the last at or before `to`.
    const fromDay =
      filters.from === undefined ? undefined : new Date(Math.ceil(filters.from.getTime() / dayMs) * dayMs)
    const toDay =
      filters.to === undefined ? undefined : new Date(Math.floor(filters.to.getTime() / dayMs) * dayMs)
    if (fromDay !== undefined && toDay !== undefined && fromDay >= toDay) {
      await sumFromPayments(db, filters, sums)
    } else {
      await sumFromDays(db, filters, { ...(fromDay ? { fromDay } : {}), ...(toDay ? { toDay } : {}) }, sums)
      if (filters.from !== undefined && fromDay !== undefined && filters.from < fromDay) {
        await sumFromPayments(db, { ...filters, to: fromDay }, sums)
      }
      if (filters.to !== undefined && toDay !== undefined && toDay < filters.to) {
        await sumFromPayments(db, { ...filters, from: toDay }, sums)
      }
    }
  }
  const totals = [...sums.values()]
    .filter((sum) => sum.amount > 0n)
    .sort((left, right) => left.chainId - right.chainId || left.token.localeCompare(right.token))
  return Promise.all(
    totals.map(async (sum) => {
      const token = await tokens.resolve(sum.chainId, sum.token, null)
      return {
        chainId: sum.chainId,
        token: token.address,
        symbol: token.symbol,
        amount: formatTokenAmount(sum.amount.toString(), token.decimals),
      }
    }),
  )
}
