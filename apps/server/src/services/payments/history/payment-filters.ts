import type { PaymentListQuery, PaymentState } from '@quicklinks/core/api/payments'
import { isNativeTokenAddress, nativeTokenAddress, zeroAddress } from '@quicklinks/core/native-token-address'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, gte, inArray, isNotNull, lt, type SQL } from 'drizzle-orm'
import { links, routeIntents } from '../../../db/schema.ts'
import { getOwnedLinkOrThrow } from '../../links/get-owned-link-or-throw.ts'

/** The payment history's filters, checked: dates as instants, the link known to be the caller's. */
export type PaymentFilters = {
  userId: string
  linkId?: string
  invoiceId?: string
  state?: PaymentState
  /** Destination chain. */
  chainId?: number
  /** Destination token, lower-case. */
  token?: string
  /** created_at ≥ from. */
  from?: Date
  /** created_at < to. */
  to?: Date
}

const dayMs = 24 * 60 * 60 * 1000

/** A date alone means its UTC start (`from`) or the start of the next day (`to`, so the day is in). */
function toInstant(text: string, isEnd: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00.000Z`)
    return new Date(isEnd ? start + dayMs : start)
  }
  return new Date(text)
}

/**
 * The caller's filters from the parsed query. A link id that is not the caller's (or no link id
 * at all) throws AppError NOT_FOUND, as GET /api/links/{id} does, so no filter reads another
 * user's payments.
 */
export async function readPaymentFiltersOrThrow(
  db: Database,
  userId: string,
  query: Omit<PaymentListQuery, 'cursor' | 'limit'>,
): Promise<PaymentFilters> {
  if (query.linkId !== undefined) await getOwnedLinkOrThrow(db, { userId, id: query.linkId })
  return {
    userId,
    ...(query.linkId === undefined ? {} : { linkId: query.linkId }),
    ...(query.invoiceId === undefined ? {} : { invoiceId: query.invoiceId }),
    ...(query.state === undefined ? {} : { state: query.state }),
    ...(query.chainId === undefined ? {} : { chainId: query.chainId }),
    ...(query.token === undefined ? {} : { token: query.token.toLowerCase() }),
    ...(query.from === undefined ? {} : { from: toInstant(query.from, false) }),
    ...(query.to === undefined ? {} : { to: toInstant(query.to, true) }),
  }
}

/**
 * The WHERE of every history query (the query joins links): the caller's links only, payments
 * only (a route intent whose source transaction the tracker settled: `source_tx_hash` and
 * `status` are set together), then each filter.
 */
export function buildPaymentConditions(filters: PaymentFilters): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(links.userId, filters.userId),
    isNotNull(routeIntents.sourceTxHash),
    isNotNull(routeIntents.status),
  ]
  if (filters.linkId !== undefined) conditions.push(eq(routeIntents.linkId, filters.linkId))
  if (filters.invoiceId !== undefined) conditions.push(eq(routeIntents.invoiceId, filters.invoiceId))
  if (filters.state !== undefined) conditions.push(eq(routeIntents.status, filters.state))
  if (filters.chainId !== undefined) conditions.push(eq(routeIntents.toChainId, filters.chainId))
  if (filters.token !== undefined) {
    // Native is written two ways (the all-e placeholder or zero); either finds both.
    conditions.push(
      isNativeTokenAddress(filters.token)
        ? inArray(routeIntents.toToken, [nativeTokenAddress.toLowerCase(), zeroAddress])
        : eq(routeIntents.toToken, filters.token),
    )
  }
  if (filters.from !== undefined) conditions.push(gte(routeIntents.createdAt, filters.from))
  if (filters.to !== undefined) conditions.push(lt(routeIntents.createdAt, filters.to))
  return and(...conditions) as SQL
}
