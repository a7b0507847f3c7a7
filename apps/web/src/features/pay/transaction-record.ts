import { AppError } from '@quicklinks/core/app-error'
import {
  type NormalizedTransactionStatus,
  readStepStatus,
  readTransactionStatus,
} from '@quicklinks/core/transaction-status'
import { type ApiClient, api } from '../../lib/api-client'

/** A route step as the timeline shows it (docs/product.md#step-status). */
export type RouteStep = {
  kind: 'swap' | 'bridge' | 'transfer' | 'other'
  chainId: number
  srcChainId: number
  dstChainId: number
  tokenIn: string
  tokenOut: string
  providerName: string
  estimatedMs: number
  amountIn: string
  amountOut: string
  txHash: string | null
  status: 'ok' | 'fail' | 'pending'
}

/** The polled transaction record, the fields the modal reads (docs/api.md#transaction-record). */
export type TransactionRecord = {
  id: string
  intentId: string | null
  fromChainId: number | null
  toChainId: number | null
  sourceTxHash: string | null
  destTxHash: string | null
  statusRaw: string
  status: NormalizedTransactionStatus
  isRefunded: boolean
  steps: RouteStep[]
  fromChainTxUrl: string | null
  toChainTxUrl: string | null
  errorMessage: string | null
  createDate: string | null
  updateDate: string | null
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}

function pick(record: Record<string, unknown>, snake: string, camel: string): unknown {
  return record[snake] ?? record[camel]
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null
}

function numberOrNull(value: unknown): number | null {
  const parsed = Number(value)
  return value !== null && value !== undefined && Number.isFinite(parsed) ? parsed : null
}

function readKind(value: unknown): RouteStep['kind'] {
  return value === 'swap' || value === 'bridge' || value === 'transfer' ? value : 'other'
}

/** Route path and route status, aligned one to one, become the derived steps. */
function readSteps(path: unknown, statuses: unknown, isSuccess: boolean): RouteStep[] {
  if (!Array.isArray(path)) return []
  const statusList = Array.isArray(statuses) ? statuses : []
  return path.map((entry, index) => {
    const action = asRecord(entry)
    const status = asRecord(statusList[index])
    const fromToken = asRecord(action.fromToken)
    const toToken = asRecord(action.toToken)
    const fromChainId = numberOrNull(action.fromChainId ?? fromToken.chainId) ?? 0
    const toChainId = numberOrNull(action.toChainId ?? toToken.chainId) ?? fromChainId
    return {
      kind: readKind(action.type),
      chainId: numberOrNull(status.chainId) ?? fromChainId,
      srcChainId: fromChainId,
      dstChainId: toChainId,
      tokenIn: text(fromToken.symbol) ?? '',
      tokenOut: text(toToken.symbol) ?? '',
      providerName: text(action.provider) ?? '',
      estimatedMs: numberOrNull(action.estimatedMs) ?? 0,
      amountIn: text(action.fromAmount) ?? '',
      amountOut: text(action.toAmount) ?? '',
      txHash: text(status.txHash),
      status: isSuccess ? 'ok' : readStepStatus(text(status.status)),
    }
  })
}

/** Reads one record (snake_case, camelCase aliases accepted); undefined when it is no record. */
export function parseTransactionRecord(value: unknown): TransactionRecord | undefined {
  const record = asRecord(value)
  const id = text(record.id) ?? text(pick(record, 'intent_id', 'intentId'))
  if (id === null) return undefined
  const statusRaw = text(pick(record, 'status_raw', 'statusRaw')) ?? text(record.status) ?? ''
  const reading = readTransactionStatus(statusRaw)
  return {
    id,
    intentId: text(pick(record, 'intent_id', 'intentId')),
    fromChainId: numberOrNull(pick(record, 'from_chain_id', 'fromChainId')),
    toChainId: numberOrNull(pick(record, 'to_chain_id', 'toChainId')),
    sourceTxHash: text(pick(record, 'source_tx_hash', 'sourceTxHash')),
    destTxHash: text(pick(record, 'dest_tx_hash', 'destTxHash')),
    statusRaw,
    status: reading.status,
    isRefunded: reading.isRefunded || pick(record, 'is_refunded', 'isRefunded') === true,
    steps: readSteps(
      pick(record, 'route_path', 'routePath'),
      pick(record, 'route_status', 'routeStatus'),
      reading.status === 'success',
    ),
    fromChainTxUrl: text(pick(record, 'from_chain_tx_url', 'fromChainTxUrl')),
    toChainTxUrl: text(pick(record, 'to_chain_tx_url', 'toChainTxUrl')),
    errorMessage: text(pick(record, 'error_message', 'errorMessage')),
    createDate: text(pick(record, 'create_date', 'createDate')),
    updateDate: text(pick(record, 'update_date', 'updateDate')),
  }
}

/**
 * GET /api/data/transactions/{address}: the payer's records. A 404 is an empty list; any other
 * failure rejects with the AppError ('Failed to load transaction' when the answer says nothing).
 */
export async function getTransactions(
  address: string,
  client: ApiClient = api,
): Promise<TransactionRecord[]> {
  try {
    const body = await client.request<unknown>(`/api/data/transactions/${encodeURIComponent(address)}`, {
      fallbackMessage: 'Failed to load transaction',
    })
    const list = Array.isArray(body) ? body : asRecord(body).data
    if (!Array.isArray(list)) return []
    return list.map(parseTransactionRecord).filter((record) => record !== undefined)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return []
    throw error
  }
}

/** True when `record` follows the transaction `txHash` (hashes compared ignoring case). */
export function isRecordOfTransaction(record: TransactionRecord, txHash: string): boolean {
  return record.sourceTxHash !== null && record.sourceTxHash.toLowerCase() === txHash.toLowerCase()
}

/**
 * The intent's record (picked by intent id, which the modal always knows), seen by the payer
 * who sent `txHash`. Anyone may post a receipt for an
 * intent, so its record can follow another transaction (a bystander's hash posted first), or none
 * yet: such a record says nothing about this payment, and is shown as a pending one that keeps only
 * the route (its steps pending, no hashes, links or error). Among several records of the intent the
 * one of `txHash` wins. Undefined while the intent has no record.
 */
export function selectPaymentRecord(
  records: readonly TransactionRecord[],
  payment: { intentId: string; txHash: string },
): TransactionRecord | undefined {
  const intentId = payment.intentId.toLowerCase()
  const ofIntent = records.filter((record) => record.intentId?.toLowerCase() === intentId)
  const own = ofIntent.find((record) => isRecordOfTransaction(record, payment.txHash))
  if (own !== undefined) return own
  const other = ofIntent[0]
  return other === undefined ? undefined : toPendingRecord(other)
}

function toPendingRecord(record: TransactionRecord): TransactionRecord {
  return {
    ...record,
    sourceTxHash: null,
    destTxHash: null,
    statusRaw: '',
    status: 'submitted',
    isRefunded: false,
    steps: record.steps.map((step) => ({ ...step, txHash: null, status: 'pending' })),
    fromChainTxUrl: null,
    toChainTxUrl: null,
    errorMessage: null,
  }
}

/** How a payment ended, as the pay modal's steps 5 and 6 show it. */
export type PaymentOutcome = 'success' | 'failed'

/**
 * 'success' or 'failed' only when `record` follows the very transaction the wallet sent (`txHash`,
 * any case) and says so; null otherwise. A final status of another transaction, or of a record
 * with no transaction yet, is not final for this payer: the modal keeps waiting.
 */
export function getPaymentOutcome(
  record: TransactionRecord | undefined,
  txHash: string,
): PaymentOutcome | null {
  if (record === undefined || !isRecordOfTransaction(record, txHash)) return null
  return record.status === 'success' || record.status === 'failed' ? record.status : null
}

/** POST /api/route-intent/{intentId}/receipt after the payment is sent; failures are ignored. */
export async function postRouteReceipt(
  intentId: string,
  txHash: string,
  client: ApiClient = api,
): Promise<void> {
  try {
    await client.request(`/api/route-intent/${encodeURIComponent(intentId)}/receipt`, {
      method: 'POST',
      body: { txHash },
      queueWhenOffline: false,
    })
  } catch {
    // Ignored (docs/product.md#step-processing): the modal polls for the record either way.
  }
}
