import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'
import { routeActionSchema, transactionRequestSchema } from './routing.ts'

/** A payment as the payer's records show it (docs/api.md#transaction-record), snake_case. */
export const transactionRecordSchema = nameSchema(
  z.object({
    id: z.string(),
    intent_id: z.string(),
    from_chain_id: z.int(),
    to_chain_id: z.int(),
    source_tx_hash: z.nullable(z.string()),
    dest_tx_hash: z.nullable(z.string()),
    request_id: z.nullable(z.string()),
    transaction_request: transactionRequestSchema,
    status_raw: z.nullable(z.string()),
    route_path: z.array(routeActionSchema),
    route_status: z.array(
      z.object({
        type: z.string(),
        chainId: z.int(),
        txHash: z.nullable(z.string()),
        status: z.string(),
      }),
    ),
    status: z.enum(['submitted', 'bridging', 'success', 'failed']),
    is_refunded: z.boolean(),
    to_amount_wei: z.nullable(z.string()),
    time_spent_ms: z.nullable(z.int()),
    from_chain_tx_url: z.nullable(z.string()),
    to_chain_tx_url: z.nullable(z.string()),
    gas_status: z.nullable(z.string()),
    is_gmp_transaction: z.boolean(),
    axelar_transaction_url: z.nullable(z.string()),
    error_message: z.nullable(z.string()),
    create_date: z.string(),
    update_date: z.string(),
  }),
  'TransactionRecord',
)

/** The path of GET /api/data/transactions/{address} (docs/api.md#transactions). */
export const transactionListParamsSchema = z.object({
  address: describeSchema(z.string().check(z.maxLength(64)), 'The paying wallet'),
})

/** The answer of GET /api/data/transactions/{address}: the wallet's payments, newest update first. */
export const transactionListResponseSchema = z.object({ data: z.array(transactionRecordSchema) })

/** A payment record as the API answers it. */
export type TransactionRecordResponse = z.infer<typeof transactionRecordSchema>
