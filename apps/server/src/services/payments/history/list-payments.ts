import type { Payment, PaymentRouteKind, PaymentState } from '@quicklinks/core/api/payments'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { formatUnits } from 'viem'
import { links, routeIntents } from '../../../db/schema.ts'
import { decodePaymentCursorOrThrow, encodePaymentCursor } from './payment-cursor.ts'
import { buildPaymentConditions, type PaymentFilters } from './payment-filters.ts'
import type { PaymentTokenResolver, StoredTokenRef } from './resolve-payment-tokens.ts'

/** One page of the payment history, newest first. */
export type PaymentPage = { payments: Payment[]; nextCursor: string | null }

/** What naming a payment needs beyond its row: its tokens and the explorers of its chains. */
export type PaymentReadContext = {
  tokens: PaymentTokenResolver
  /** A transaction's explorer page, or null when its chain has none. */
  buildTxUrl: (chainId: number, hash: string) => string | null
}

/** The route's kind from its ends: another chain is a bridge, another token a swap. */
export function readRouteKind(row: {
  fromChainId: number
  toChainId: number
  fromToken: string
  toToken: string
}): PaymentRouteKind {
  if (row.fromChainId !== row.toChainId) return 'bridge'
  return row.fromToken.toLowerCase() === row.toToken.toLowerCase() ? 'transfer' : 'swap'
}

/** Decimal string of an integer amount in a token of `decimals`; a malformed one is kept as written. */
export function formatTokenAmount(units: string, decimals: number): string {
  return /^\d+$/.test(units) ? formatUnits(BigInt(units), decimals) : units
}

/** What a payment is named from: its route intent's columns, its link's alias, the tokens as quoted. */
export type PaymentRow = {
  id: string
  linkId: string | null
  linkName: string
  invoiceId: string | null
  status: string | null
  fromAddress: string
  fromChainId: number
  sourceTxHash: string | null
  fromToken: string
  fromAmount: string
  toChainId: number
  destTxHash: string | null
  toToken: string
  toAmountWei: string | null
  provider: string
  createdAt: Date
  completedAt: Date | null
  fromTokenRef: StoredTokenRef
  toTokenRef: StoredTokenRef
}

/**
 * A payment as the API answers it (docs/api.md#payment-object), from its row; tokens not yet
 * resolved by `context.tokens` keep their address with an empty symbol and 0 decimals.
 */
export function toPayment(row: PaymentRow, context: PaymentReadContext): Payment {
  const { tokens, buildTxUrl } = context
  const unknown = (address: string) => ({ address: address.toLowerCase(), symbol: '', decimals: 0 })
  const fromToken =
    tokens.resolveKnown(row.fromChainId, row.fromToken, row.fromTokenRef) ?? unknown(row.fromToken)
  const toToken = tokens.resolveKnown(row.toChainId, row.toToken, row.toTokenRef) ?? unknown(row.toToken)
  return {
    intentId: row.id,
    linkId: row.linkId ?? '',
    linkName: row.linkName,
    invoiceId: row.invoiceId,
    state: row.status as PaymentState,
    payer: row.fromAddress,
    sourceChainId: row.fromChainId,
    sourceTxHash: row.sourceTxHash ?? '',
    sourceTxUrl: row.sourceTxHash === null ? null : buildTxUrl(row.fromChainId, row.sourceTxHash),
    fromToken,
    amountIn: formatTokenAmount(row.fromAmount, fromToken.decimals),
    destChainId: row.toChainId,
    destTxHash: row.destTxHash,
    destTxUrl: row.destTxHash === null ? null : buildTxUrl(row.toChainId, row.destTxHash),
    toToken,
    amountReceived: row.toAmountWei === null ? null : formatTokenAmount(row.toAmountWei, toToken.decimals),
    routeKind: readRouteKind(row),
    provider: row.provider,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  }
}

/**
 * One page of the caller's payments (docs/api.md#payments-list), newest first by (created_at, id),
 * after `cursor` when given. Reads `limit` + 1 rows to know whether another page follows. Throws
 * AppError VALIDATION_FAILED for a cursor this API did not hand out.
 */
export async function listPaymentPage(
  db: Database,
  filters: PaymentFilters,
  page: { cursor?: string | undefined; limit: number },
  context: PaymentReadContext,
): Promise<PaymentPage> {
  const { tokens } = context
  const conditions: SQL[] = [buildPaymentConditions(filters)]
  if (page.cursor !== undefined) {
    const after = decodePaymentCursorOrThrow(page.cursor)
    conditions.push(
      sql`(${routeIntents.createdAt}, ${routeIntents.id}) < (${after.createdAt}::timestamptz, ${after.id})`,
    )
  }
  const rows = await db
    .select({
      id: routeIntents.id,
      linkId: routeIntents.linkId,
      linkName: links.alias,
      invoiceId: routeIntents.invoiceId,
      status: routeIntents.status,
      fromAddress: routeIntents.fromAddress,
      fromChainId: routeIntents.fromChainId,
      sourceTxHash: routeIntents.sourceTxHash,
      fromToken: routeIntents.fromToken,
      fromAmount: routeIntents.fromAmount,
      toChainId: routeIntents.toChainId,
      destTxHash: routeIntents.destTxHash,
      toToken: routeIntents.toToken,
      toAmountWei: routeIntents.toAmountWei,
      provider: routeIntents.provider,
      createdAt: routeIntents.createdAt,
      completedAt: routeIntents.completedAt,
      // The exact position for the cursor (see payment-cursor.ts), and the tokens as quoted.
      position: sql<string>`to_char(${routeIntents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      fromTokenRef: sql<StoredTokenRef>`${routeIntents.actions} -> 0 -> 'fromToken'`,
      toTokenRef: sql<StoredTokenRef>`${routeIntents.actions} -> -1 -> 'toToken'`,
    })
    .from(routeIntents)
    .innerJoin(links, eq(links.id, routeIntents.linkId))
    .where(and(...conditions))
    .orderBy(desc(routeIntents.createdAt), desc(routeIntents.id))
    .limit(page.limit + 1)
  const hasMore = rows.length > page.limit
  const shown = hasMore ? rows.slice(0, page.limit) : rows
  // Tokens the page names without a stored reference are looked up once each, then every row
  // is named without waiting.
  for (const row of shown) {
    if (tokens.resolveKnown(row.fromChainId, row.fromToken, row.fromTokenRef) === undefined) {
      await tokens.resolve(row.fromChainId, row.fromToken, row.fromTokenRef)
    }
    if (tokens.resolveKnown(row.toChainId, row.toToken, row.toTokenRef) === undefined) {
      await tokens.resolve(row.toChainId, row.toToken, row.toTokenRef)
    }
  }
  const payments = shown.map((row) => toPayment(row, context))
  const last = shown.at(-1)
  return {
    payments,
    nextCursor:
      hasMore && last !== undefined ? encodePaymentCursor({ createdAt: last.position, id: last.id }) : null,
  }
}
