import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * The payee's payment history (docs/api.md#payments-list, #payments-export): every payment into
 * the signed-in user's links whose source transaction the tracker matched to its route. The
 * server's routes document with these schemas and the web parses its answers with them.
 */

/** A payment's state: its tracking status (in flight: submitted, bridging; then success or failed). */
export const paymentStates = ['submitted', 'bridging', 'success', 'failed'] as const
export const paymentStateSchema = z.enum(paymentStates)
export type PaymentState = z.infer<typeof paymentStateSchema>

/** How the money moved: cross-chain is a bridge, same chain another token a swap, else a transfer. */
export const paymentRouteKinds = ['transfer', 'swap', 'bridge'] as const
export const paymentRouteKindSchema = z.enum(paymentRouteKinds)
export type PaymentRouteKind = z.infer<typeof paymentRouteKindSchema>

/** The page size when none is asked for, and the largest one. */
export const paymentPageDefaultLimit = 50
export const paymentPageMaxLimit = 200

/** A token as a payment names it: symbol and decimals from the route's quote or the token list. */
export const paymentTokenSchema = z.object({
  address: describeSchema(z.string(), 'Lower-case; the all-e address is the native token'),
  symbol: describeSchema(z.string(), 'Empty when the token is unknown to this instance'),
  decimals: z.int(),
})

/** One payment as its payee sees it (docs/api.md#payment-object). */
export const paymentSchema = nameSchema(
  z.object({
    intentId: z.string(),
    linkId: z.string(),
    linkName: describeSchema(z.string(), "The link's alias"),
    invoiceId: z.nullable(z.string()),
    state: paymentStateSchema,
    payer: describeSchema(z.string(), 'The wallet that paid, lower-case'),
    sourceChainId: z.int(),
    sourceTxHash: z.string(),
    sourceTxUrl: describeSchema(z.nullable(z.string()), "The source transaction's explorer page"),
    fromToken: paymentTokenSchema,
    amountIn: describeSchema(z.string(), 'Decimal string in fromToken'),
    destChainId: z.int(),
    destTxHash: z.nullable(z.string()),
    destTxUrl: describeSchema(z.nullable(z.string()), "The destination transaction's explorer page"),
    toToken: paymentTokenSchema,
    amountReceived: describeSchema(
      z.nullable(z.string()),
      "Decimal string in toToken: the receiver's credit verified on chain; null until verified",
    ),
    routeKind: paymentRouteKindSchema,
    provider: z.string(),
    createdAt: z.iso.datetime(),
    completedAt: z.nullable(z.iso.datetime()),
  }),
  'Payment',
)
export type Payment = z.infer<typeof paymentSchema>

const addressPattern = /^0x[0-9a-fA-F]{40}$/
/** An ISO date (a whole UTC day) or date-time. */
const dateOrDateTimeSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })])

/** GET /api/payments's and /api/payments/export.csv's query (docs/api.md#payments-list). */
export const paymentListQuerySchema = z.object({
  linkId: z.optional(z.string().check(z.maxLength(64))),
  invoiceId: z.optional(z.string().check(z.maxLength(64))),
  state: z.optional(paymentStateSchema),
  chainId: z.optional(
    describeSchema(
      z.pipe(
        z.string().check(z.regex(/^\d{1,12}$/, 'must be a chain id')),
        z.transform((text: string) => Number(text)),
      ),
      'Destination chain id',
    ),
  ),
  token: z.optional(
    describeSchema(
      z.string().check(z.regex(addressPattern, 'must be a token address (0x followed by 40 hex digits)')),
      'Destination token address',
    ),
  ),
  from: z.optional(describeSchema(dateOrDateTimeSchema, 'Created at or after (a date means its start, UTC)')),
  to: z.optional(describeSchema(dateOrDateTimeSchema, 'Created before (a date means to its end, UTC)')),
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, 'must be a whole number')),
      z.pipe(
        z.transform((text: string) => Number(text)),
        z
          .number()
          .check(
            z.minimum(1, 'must be at least 1'),
            z.maximum(paymentPageMaxLimit, `must be at most ${paymentPageMaxLimit}`),
          ),
      ),
    ),
  ),
})
export type PaymentListQuery = z.output<typeof paymentListQuerySchema>
/** The query as a client writes it (strings). */
export type PaymentListQueryInput = z.input<typeof paymentListQuerySchema>

/** What the successful, final payments matching the filters delivered in one destination token. */
export const paymentTotalSchema = z.object({
  chainId: z.int(),
  token: z.string(),
  symbol: z.string(),
  amount: describeSchema(z.string(), 'Decimal string in the token'),
})
export type PaymentTotal = z.infer<typeof paymentTotalSchema>

/** The answer of GET /api/payments. */
export const paymentListResponseSchema = z.object({
  data: z.array(paymentSchema),
  nextCursor: describeSchema(z.nullable(z.string()), 'Pass as cursor for the next page; null on the last'),
  totals: z.array(paymentTotalSchema),
})
export type PaymentListResponse = z.infer<typeof paymentListResponseSchema>

/** The CSV export's columns, in order (docs/api.md#payments-export). */
export const paymentCsvColumns = [
  'created_at',
  'completed_at',
  'state',
  'link_id',
  'link_name',
  'invoice_id',
  'payer',
  'route_kind',
  'provider',
  'source_chain_id',
  'source_tx_hash',
  'from_token',
  'from_symbol',
  'amount_in',
  'dest_chain_id',
  'dest_tx_hash',
  'to_token',
  'to_symbol',
  'amount_received',
  'intent_id',
] as const
