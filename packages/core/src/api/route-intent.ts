import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { transactionRecordSchema } from './transactions.ts'

/**
 * A route intent's payment under /api/route-intent/{intentId} (docs/api.md#route-receipt,
 * docs/api.md#route-intent): the receipt the payer's wallet posts after sending it, and the
 * payment as that payer sees it.
 */

const hashPattern = /^0x[0-9a-fA-F]{64}$/

/** A transaction hash, any case, trimmed; lowercase after parsing. */
export const txHashSchema = z.pipe(
  z
    .string({ error: 'txHash must be a transaction hash (0x followed by 64 hex digits).' })
    .check(
      z.trim(),
      z.regex(hashPattern, 'txHash must be a transaction hash (0x followed by 64 hex digits).'),
    ),
  z.transform((hash: string) => hash.toLowerCase()),
)

/** The path of POST /api/route-intent/{intentId}/receipt: an unknown or malformed id is a 404 there. */
export const routeReceiptParamsSchema = z.object({
  intentId: describeSchema(z.string().check(z.maxLength(80)), 'The intentId the route answered'),
})

/** POST /api/route-intent/{intentId}/receipt's body: the server checks the hash on chain itself. */
export const routeReceiptRequestSchema = z.object({
  txHash: describeSchema(txHashSchema, 'The payment transaction hash (0x + 64 hex)'),
})

/** The answer of POST /api/route-intent/{intentId}/receipt: the payment's status after a first look. */
export const routeReceiptResponseSchema = z.object({
  data: z.object({
    intentId: z.string(),
    txHash: z.string(),
    status: z.enum(['submitted', 'bridging', 'success', 'failed']),
  }),
})

/** The path of GET /api/route-intent/{intentId}. */
export const routeIntentParamsSchema = z.object({
  intentId: describeSchema(
    z.pipe(
      z
        .string()
        .check(
          z.trim(),
          z.regex(hashPattern, 'intentId must be a route intent id (0x followed by 64 hex digits).'),
        ),
      z.transform((id: string) => id.toLowerCase()),
    ),
    'The intentId the route answered',
  ),
})

/** GET /api/route-intent/{intentId}'s query: who asks, and the transaction their wallet sent. */
export const routeIntentQuerySchema = z.object({
  payer: describeSchema(
    z.pipe(
      z
        .string({ error: 'payer must be the paying wallet address (0x followed by 40 hex digits).' })
        .check(
          z.trim(),
          z.regex(
            /^0x[0-9a-fA-F]{40}$/,
            'payer must be the paying wallet address (0x followed by 40 hex digits).',
          ),
        ),
      z.transform((address: string) => address.toLowerCase()),
    ),
    'The wallet that pays the route (the route request’s fromAddress)',
  ),
  txHash: describeSchema(txHashSchema, 'The transaction that wallet sent for the route'),
})

/**
 * The answer of GET /api/route-intent/{intentId}: the payment's record as its payer sees it. It
 * follows `txHash` only when that transaction is the payment's; otherwise (another hash was posted
 * first, or none matched yet) it is pending and keeps only the route.
 */
export const routeIntentResponseSchema = z.object({ data: transactionRecordSchema })

/** GET /api/route-intent/{intentId}'s query after parsing: both lowercase. */
export type RouteIntentQuery = z.output<typeof routeIntentQuerySchema>
