import { z } from 'zod'
import { routeActionSchema, transactionRequestSchema } from './routing.ts'

/** A payment as the payer's records show it (docs/api.md#transaction-record), snake_case. */
export const transactionRecordSchema = z
  .object({
    id: z.string(),
    intent_id: z.string(),
    from_chain_id: z.number().int(),
    to_chain_id: z.number().int(),
    source_tx_hash: z.string().nullable(),
    dest_tx_hash: z.string().nullable(),
    request_id: z.string().nullable(),
    transaction_request: transactionRequestSchema,
    status_raw: z.string().nullable(),
    route_path: z.array(routeActionSchema),
    route_status: z.array(
      z.object({
        type: z.string(),
        chainId: z.number().int(),
        txHash: z.string().nullable(),
        status: z.string(),
      }),
    ),
    status: z.enum(['submitted', 'bridging', 'success', 'failed']),
    is_refunded: z.boolean(),
    to_amount_wei: z.string().nullable(),
    time_spent_ms: z.number().int().nullable(),
    from_chain_tx_url: z.string().nullable(),
    to_chain_tx_url: z.string().nullable(),
    gas_status: z.string().nullable(),
    is_gmp_transaction: z.boolean(),
    axelar_transaction_url: z.string().nullable(),
    error_message: z.string().nullable(),
    create_date: z.string(),
    update_date: z.string(),
  })
  .meta({ id: 'TransactionRecord' })

/** The path of GET /api/data/transactions/{address} (docs/api.md#transactions). */
export const transactionListParamsSchema = z.object({
  address: z.string().max(64).describe('The paying wallet'),
})

/** The answer of GET /api/data/transactions/{address}: the wallet's payments, newest update first. */
export const transactionListResponseSchema = z.object({ data: z.array(transactionRecordSchema) })

/** A payment record as the API answers it. */
export type TransactionRecordResponse = z.infer<typeof transactionRecordSchema>
