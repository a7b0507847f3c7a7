import type { TransactionRecordResponse } from '@quicklinks/core/api/transactions'
import { AppError } from '@quicklinks/core/app-error'
import { readTransactionStatus } from '@quicklinks/core/transaction-status'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, desc, eq, isNotNull } from 'drizzle-orm'
import { type RouteIntent, routeIntents } from '../../../db/schema.ts'
import type { RoutingProvider } from '../route/routing-provider.ts'

/** A payment record as GET /api/data/transactions/{address} answers it (docs/api.md#transaction-record). */
export type TransactionRecord = TransactionRecordResponse

export type ListTransactionRecordsOptions = {
  /** Explorer base per chain id ('' when the chain has none, as on the devnet). */
  explorerBaseUrls: ReadonlyMap<number, string>
  /** Where the dev-mode explorer lives ({publicOrigin}/api/dev/chains/{id}/tx/{hash}); null outside dev mode. */
  devExplorerOrigin: string | null
  /** Epoch ms, for the time spent by a payment still in flight. */
  now?: number
  /** The app's provider: a record of its own carries the provider's request id (Squid's x-request-id). */
  provider: Pick<RoutingProvider, 'name' | 'providerDataSchema'>
}

const recordLimit = 50

/**
 * The payments a wallet sent (route intents with a posted receipt whose payer is `address`),
 * newest update first, as transaction records. Throws AppError 422 for a malformed address.
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

/**
 * GET /api/route-intent/{intentId}: the payment as its payer sees it (docs/api.md#route-intent).
 * The intent's record when `payer` sent it and a receipt was posted for it; 404 otherwise (an
 * unknown id, another wallet's intent, or no receipt yet), so a wallet never reads another's
 * payment. Anyone may post a receipt, so the record may follow another transaction (a bystander's
 * hash posted first) or none yet: unless its source is `txHash` (the transaction the tracker proved
 * is the payer's own), it says nothing about this payment and is answered pending, keeping only
 * the route (no hashes, links, statuses or error).
 */
export async function getPayerPaymentRecordOrThrow(
  db: Database,
  intentId: string,
  query: { payer: string; txHash: string },
  options: ListTransactionRecordsOptions,
): Promise<TransactionRecord> {
  const [row] = await db
    .select()
    .from(routeIntents)
    .where(eq(routeIntents.id, intentId.toLowerCase()))
    .limit(1)
  if (row === undefined || row.fromAddress !== query.payer.toLowerCase() || row.status === null) {
    throw new AppError('NOT_FOUND', {
      message: `Payment ${intentId} asked for by ${query.payer}, who did not post a receipt for it`,
      userMessage: 'This wallet has no payment for this route.',
    })
  }
  const record = toTransactionRecord(row, options)
  if (row.sourceTxHash === query.txHash.toLowerCase()) return record
  return {
    ...record,
    source_tx_hash: null,
    dest_tx_hash: null,
    status_raw: null,
    route_status: [],
    status: 'submitted',
    is_refunded: false,
    to_amount_wei: null,
    from_chain_tx_url: null,
    to_chain_tx_url: null,
    gas_status: null,
    axelar_transaction_url: null,
    error_message: null,
  }
}

/**
 * A transaction's explorer page: the chain's explorer, else the dev-mode explorer, else null (as
 * for no hash).
 */
export function getTransactionUrl(
  options: Pick<ListTransactionRecordsOptions, 'explorerBaseUrls' | 'devExplorerOrigin'>,
  chainId: number,
  hash: string | null,
): string | null {
  if (!hash) return null
  const base = options.explorerBaseUrls.get(chainId)
  if (base) return `${base}/tx/${hash}`
  return options.devExplorerOrigin
    ? `${options.devExplorerOrigin}/api/dev/chains/${chainId}/tx/${hash}`
    : null
}

/** One route intent as a transaction record (docs/api.md#transaction-record). */
export function toTransactionRecord(
  row: RouteIntent,
  options: ListTransactionRecordsOptions,
): TransactionRecord {
  const txUrl = (chainId: number, hash: string | null) => getTransactionUrl(options, chainId, hash)
  const startedAt = row.submittedAt ?? row.createdAt
  const endedAt = row.completedAt?.getTime() ?? options.now ?? Date.now()
  const providerData =
    row.provider === options.provider.name
      ? options.provider.providerDataSchema.safeParse(row.providerData)
      : null
  const routeStatus = (row.routeStatus ?? []) as TransactionRecord['route_status']
  return {
    id: row.id,
    intent_id: row.id,
    from_chain_id: row.fromChainId,
    to_chain_id: row.toChainId,
    source_tx_hash: row.sourceTxHash,
    dest_tx_hash: row.destTxHash,
    request_id: providerData?.success ? (providerData.data.requestId ?? null) : null,
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
