import { paymentCsvColumns } from '@quicklinks/core/api/payments'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { links, routeIntents } from '../../../db/schema.ts'
import { formatTokenAmount, type PaymentReadContext, readRouteKind } from './list-payments.ts'
import { buildPaymentConditions, type PaymentFilters } from './payment-filters.ts'
import type { PaymentToken } from './resolve-payment-tokens.ts'

/** Rows read per query while exporting: the most the export holds at once. */
export const paymentCsvPageSize = 1000

/** A spreadsheet reads a cell starting with one of these as a formula (OWASP CSV injection). */
const formulaStart = /^[=+\-@\t\r]/
/** A text that needs toCsvCell's care: a formula start, or a character that needs quoting. */
const needsCare = /^[=+\-@\t\r]|[",\r\n]/

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

/** toCsvCell for text, with one test for the common text that needs nothing. */
function toTextCell(text: string | null): string {
  if (text === null) return ''
  return needsCare.test(text) ? toCsvCell(text) : text
}

/**
 * One exported payment as the database hands it: one JSON array per row (one field to read and
 * decode instead of twenty; PGlite copies each field it reads), times already ISO text, the
 * quoted tokens' symbol and decimals as the stored route action has them (any JSON, or null).
 */
type PaymentCsvRow = [
  /** created_at to the microsecond: the keyset position, as payment-cursor.ts keeps it. */
  position: string,
  /** completed_at as Date#toISOString writes it (milliseconds, truncated as a JS Date does). */
  completedAt: string | null,
  status: string,
  linkId: string | null,
  linkName: string,
  invoiceId: string | null,
  payer: string,
  fromChainId: number,
  sourceTxHash: string | null,
  fromToken: string,
  fromAmount: string,
  fromSymbol: unknown,
  fromDecimals: unknown,
  toChainId: number,
  destTxHash: string | null,
  toToken: string,
  toAmountWei: string | null,
  toSymbol: unknown,
  toDecimals: unknown,
  provider: string,
  id: string,
]

const isoMilliseconds = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
const isoMicroseconds = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'

/** One page of the export after `after` (newest first by created_at, id), `limit` + 1 rows. */
async function readPaymentCsvRows(
  db: Database,
  conditions: SQL,
  after: { position: string; id: string } | undefined,
  limit: number,
): Promise<PaymentCsvRow[]> {
  const fromRef = sql`${routeIntents.actions} -> 0 -> 'fromToken'`
  const toRef = sql`${routeIntents.actions} -> -1 -> 'toToken'`
  const query = db
    .select({
      row: sql`json_build_array(
        to_char(${routeIntents.createdAt} at time zone 'UTC', ${isoMicroseconds}),
        to_char(${routeIntents.completedAt} at time zone 'UTC', ${isoMilliseconds}),
        ${routeIntents.status}, ${routeIntents.linkId}, ${links.alias}, ${routeIntents.invoiceId},
        ${routeIntents.fromAddress}, ${routeIntents.fromChainId}, ${routeIntents.sourceTxHash},
        ${routeIntents.fromToken}, ${routeIntents.fromAmount}, ${fromRef} -> 'symbol', ${fromRef} -> 'decimals',
        ${routeIntents.toChainId}, ${routeIntents.destTxHash}, ${routeIntents.toToken},
        ${routeIntents.toAmountWei}, ${toRef} -> 'symbol', ${toRef} -> 'decimals',
        ${routeIntents.provider}, ${routeIntents.id}
      )::text`.as('row'),
    })
    .from(routeIntents)
    .innerJoin(links, eq(links.id, routeIntents.linkId))
    .where(
      after === undefined
        ? conditions
        : and(
            conditions,
            sql`(${routeIntents.createdAt}, ${routeIntents.id}) < (${after.position}::timestamptz, ${after.id})`,
          ),
    )
    .orderBy(desc(routeIntents.createdAt), desc(routeIntents.id))
    .limit(limit + 1)
  // Raw rows (no per-column mapping), each one text to parse.
  const { rows } = await db.execute<{ row: string }>(query)
  return rows.map((row) => JSON.parse(row.row) as PaymentCsvRow)
}

/**
 * A payment's token as the payment history names it (the resolver's resolveKnown): the stored
 * quote's symbol and decimals when usable, else what the resolver already found for the address;
 * undefined when it has found nothing yet (then `resolve` it once).
 */
function nameKnownToken(
  tokens: PaymentReadContext['tokens'],
  chainId: number,
  address: string,
  symbol: unknown,
  decimals: unknown,
): PaymentToken | undefined {
  if (typeof symbol === 'string' && typeof decimals === 'number') {
    return { address: address.toLowerCase(), symbol, decimals }
  }
  return tokens.resolveKnown(chainId, address, null)
}

/** One row as a CSV line in `paymentCsvColumns` order, CRLF-terminated (RFC 4180). */
function toCsvLine(row: PaymentCsvRow, fromToken: PaymentToken, toToken: PaymentToken): string {
  const [position, completedAt, status, linkId, linkName, invoiceId, payer, fromChainId, sourceTxHash] = row
  const [fromAmount, toChainId, destTxHash, toAmountWei, provider, id] = [
    row[10],
    row[13],
    row[14],
    row[16],
    row[19],
    row[20],
  ]
  const routeKind = readRouteKind({ fromChainId, toChainId, fromToken: row[9], toToken: row[15] })
  const amountIn = formatTokenAmount(fromAmount, fromToken.decimals)
  const amountReceived = toAmountWei === null ? null : formatTokenAmount(toAmountWei, toToken.decimals)
  return (
    `${toTextCell(`${position.slice(0, 23)}Z`)},${toTextCell(completedAt)},${toTextCell(status)},` +
    `${toTextCell(linkId ?? '')},${toTextCell(linkName)},${toTextCell(invoiceId)},` +
    `${toTextCell(payer)},${routeKind},${toTextCell(provider)},${fromChainId},` +
    `${toTextCell(sourceTxHash ?? '')},${toTextCell(fromToken.address)},${toTextCell(fromToken.symbol)},` +
    `${toTextCell(amountIn)},${toChainId},` +
    `${toTextCell(destTxHash)},${toTextCell(toToken.address)},${toTextCell(toToken.symbol)},` +
    `${toTextCell(amountReceived)},${toTextCell(id)}\r\n`
  )
}

/**
 * The CSV export (docs/api.md#payments-export): the header line, then one line per payment
 * matching `filters`, newest first, read page by page on (created_at, id), so memory stays at one
 * page whatever the number of rows; the next page is read only when the consumer asks for more (an
 * HTTP response under back-pressure). Each line says what the payment history's `Payment` says
 * (the same tokens, amounts and times; stream-payments-csv.test.ts checks it against that path),
 * made straight from the row: an export of 100,000 payments runs this 100,000 times. Rejects
 * when the database fails.
 */
export async function* streamPaymentsCsv(
  db: Database,
  filters: PaymentFilters,
  context: PaymentReadContext,
  options: { pageSize?: number } = {},
): AsyncGenerator<string> {
  yield `${paymentCsvColumns.join(',')}\r\n`
  const limit = options.pageSize ?? paymentCsvPageSize
  const conditions = buildPaymentConditions(filters)
  const { tokens } = context
  let after: { position: string; id: string } | undefined
  for (;;) {
    const rows = await readPaymentCsvRows(db, conditions, after, limit)
    const shown = rows.length > limit ? rows.slice(0, limit) : rows
    let chunk = ''
    for (const row of shown) {
      // Tokens the resolver has not named yet are looked up once each; every other row waits for nothing.
      const fromToken =
        nameKnownToken(tokens, row[7], row[9], row[11], row[12]) ??
        (await tokens.resolve(row[7], row[9], null))
      const toToken =
        nameKnownToken(tokens, row[13], row[15], row[17], row[18]) ??
        (await tokens.resolve(row[13], row[15], null))
      chunk += toCsvLine(row, fromToken, toToken)
    }
    // One chunk per page: far fewer writes than one per line, and still one page in memory.
    if (chunk !== '') yield chunk
    const last = shown.at(-1)
    if (rows.length <= limit || last === undefined) return
    after = { position: last[0], id: last[20] }
  }
}
