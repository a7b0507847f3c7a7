import { AppError } from '@quicklinks/core/app-error'
import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import { and, desc, eq, isNotNull } from 'drizzle-orm'
import { z } from 'zod'
import type { Database } from '../../db/create-database-client.ts'
import { type RouteIntent, routeIntents } from '../../db/schema.ts'
import { routeActionSchema, transactionRequestSchema } from '../routing/routing-provider.ts'

/** SPEC section 3, Transaction record (polled), snake_case as SPEC names it. */
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

export type TransactionRecord = z.infer<typeof transactionRecordSchema>

export type ListTransactionRecordsOptions = {
  /** Explorer base per chain id ('' when the chain has none, as on the devnet). */
  explorerBaseUrls: ReadonlyMap<number, string>
  /** Where the dev-mode explorer lives ({publicOrigin}/api/dev/chains/{id}/tx/{hash}); null outside dev mode. */
  devExplorerOrigin: string | null
  /** Epoch ms, for the time spent by a payment still in flight. */
  now?: number
}

const recordLimit = 50

/**
 * The payments a wallet sent (route intents with a posted receipt whose payer is `address`),
 * newest update first, as SPEC's transaction records. Throws AppError 422 for a malformed address.
 */
export async function listTransactionRecords(
  db: Database,
  address: string,
  options: ListTransactionRecordsOptions,
): Promise<TransactionRecord[]> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new AppError('VALIDATION_FAILED', {
      field: 'address',
      userMessage: 'address must be a wallet address (0x followed by 40 hex digits).',
    })
  }
  const rows = await db
    .select()
    .from(routeIntents)
    .where(and(eq(routeIntents.fromAddress, address.toLowerCase()), isNotNull(routeIntents.status)))
    .orderBy(desc(routeIntents.updatedAt))
    .limit(recordLimit)
  return rows.map((row) => toTransactionRecord(row, options))
}

/** One route intent as SPEC's transaction record. */
export function toTransactionRecord(
  row: RouteIntent,
  options: ListTransactionRecordsOptions,
): TransactionRecord {
  const txUrl = (chainId: number, hash: string | null): string | null => {
    if (!hash) return null
    const base = options.explorerBaseUrls.get(chainId)
    if (base) return `${base}/tx/${hash}`
    return options.devExplorerOrigin
      ? `${options.devExplorerOrigin}/api/dev/chains/${chainId}/tx/${hash}`
      : null
  }
  const startedAt = row.submittedAt ?? row.createdAt
  const endedAt = row.completedAt?.getTime() ?? options.now ?? Date.now()
  const providerData = row.providerData as { requestId?: unknown }
  const routeStatus = (row.routeStatus ?? []) as TransactionRecord['route_status']
  return {
    id: row.id,
    intent_id: row.id,
    from_chain_id: row.fromChainId,
    to_chain_id: row.toChainId,
    source_tx_hash: row.sourceTxHash,
    dest_tx_hash: row.destTxHash,
    request_id: typeof providerData.requestId === 'string' ? providerData.requestId : null,
    transaction_request: row.transactionRequest as TransactionRecord['transaction_request'],
    status_raw: row.statusRaw,
    route_path: row.actions as TransactionRecord['route_path'],
    route_status: routeStatus,
    status: readTransactionStatus(row.statusRaw).status,
    is_refunded: row.isRefunded,
    to_amount_wei: row.toAmountWei,
    time_spent_ms: Math.max(0, endedAt - startedAt.getTime()),
    from_chain_tx_url: txUrl(row.fromChainId, row.sourceTxHash),
    to_chain_tx_url: txUrl(row.toChainId, row.destTxHash),
    gas_status: row.gasStatus,
    is_gmp_transaction: row.isGmp,
    axelar_transaction_url: row.axelarUrl,
    error_message: row.errorMessage,
    create_date: row.createdAt.toISOString(),
    update_date: row.updatedAt.toISOString(),
  }
}
