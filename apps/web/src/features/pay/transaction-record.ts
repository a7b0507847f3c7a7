import { routeIntentAnswerSchema } from '@quicklinks/core/api/client-answers'
import { routeReceiptResponseSchema } from '@quicklinks/core/api/route-intent'
import type { TransactionRecordResponse } from '@quicklinks/core/api/transactions'
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
  /** What the chain shows the receiver got, in the smallest unit of `toToken`; null until verified. */
  toAmountWei: string | null
  /** The token the route delivers (its last action's), as the route named it; null without actions. */
  toToken: { symbol: string; decimals: number } | null
  fromChainTxUrl: string | null
  toChainTxUrl: string | null
  errorMessage: string | null
  createDate: string | null
  updateDate: string | null
}

function nonEmpty(value: string | null): string | null {
  return value === null || value.length === 0 ? null : value
}

/** Route path and route status side by side (aligned, docs/api.md#transaction-record) become the derived steps. */
function toSteps(record: TransactionRecordResponse, isSuccess: boolean): RouteStep[] {
  return record.route_path.map((action, index) => {
    const status = record.route_status[index]
    return {
      kind: action.type,
      chainId: status?.chainId ?? action.fromChainId,
      srcChainId: action.fromChainId,
      dstChainId: action.toChainId,
      tokenIn: action.fromToken.symbol,
      tokenOut: action.toToken.symbol,
      providerName: action.provider,
      estimatedMs: action.estimatedMs,
      amountIn: action.fromAmount,
      amountOut: action.toAmount,
      txHash: nonEmpty(status?.txHash ?? null),
      status: isSuccess ? 'ok' : readStepStatus(status?.status),
    }
  })
}

/** The last action's output token: what the route delivers to the receiver. */
function getDeliveredToken(record: TransactionRecordResponse): TransactionRecord['toToken'] {
  const last = record.route_path.at(-1)
  return last === undefined ? null : { symbol: last.toToken.symbol, decimals: last.toToken.decimals }
}

/**
 * The modal's view of a record the API answered (already parsed by its schema): the status
 * normalised from the provider's raw word (docs/product.md#payment-states), the steps derived
 * from the route, empty texts as null.
 */
export function toTransactionRecord(record: TransactionRecordResponse): TransactionRecord {
  const statusRaw = nonEmpty(record.status_raw) ?? record.status
  const reading = readTransactionStatus(statusRaw)
  return {
    id: record.id,
    intentId: nonEmpty(record.intent_id),
    fromChainId: record.from_chain_id,
    toChainId: record.to_chain_id,
    sourceTxHash: nonEmpty(record.source_tx_hash),
    destTxHash: nonEmpty(record.dest_tx_hash),
    statusRaw,
    status: reading.status,
    isRefunded: reading.isRefunded || record.is_refunded,
    steps: toSteps(record, reading.status === 'success'),
    toAmountWei: nonEmpty(record.to_amount_wei),
    toToken: getDeliveredToken(record),
    fromChainTxUrl: nonEmpty(record.from_chain_tx_url),
    toChainTxUrl: nonEmpty(record.to_chain_tx_url),
    errorMessage: nonEmpty(record.error_message),
    createDate: nonEmpty(record.create_date),
    updateDate: nonEmpty(record.update_date),
  }
}

/**
 * GET /api/route-intent/{intentId}: the payment as the payer who sent `txHash` sees it
 * (docs/api.md#route-intent). The server decides which record is this payment: it answers the
 * intent's record only to its payer, following `txHash` only once that is the payment's transaction
 * (pending, with only the route, while another hash or none is matched). Undefined while the intent
 * has no record for this payer (404: no receipt yet); any other failure rejects with the AppError
 * ('Failed to load transaction' when the answer says nothing).
 */
export async function getPaymentRecord(
  payment: { intentId: string; payer: string; txHash: string },
  client: ApiClient = api,
): Promise<TransactionRecord | undefined> {
  const query = new URLSearchParams({ payer: payment.payer, txHash: payment.txHash })
  try {
    const body = await client.request(
      `/api/route-intent/${encodeURIComponent(payment.intentId)}?${query}`,
      routeIntentAnswerSchema,
      { fallbackMessage: 'Failed to load transaction' },
    )
    return toTransactionRecord(body.data)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined
    throw error
  }
}

/** True when `record` follows the transaction `txHash` (hashes compared ignoring case). */
export function isRecordOfTransaction(record: TransactionRecord, txHash: string): boolean {
  return record.sourceTxHash !== null && record.sourceTxHash.toLowerCase() === txHash.toLowerCase()
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

/** Waits before each retry of a receipt post: the tracker follows only payments with a receipt. */
export const receiptRetryDelaysMs = [
  1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 30_000, 30_000, 60_000,
] as const

/**
 * POST /api/route-intent/{intentId}/receipt after the payment is sent. The server tracks a payment
 * only once a receipt names its transaction, so a post that fails for a reason that may pass (the
 * network, a 5xx, a rate limit) is retried after each of `receiptRetryDelaysMs` (about three
 * minutes in all); an answer that will not change (an unknown intent, a malformed hash, a payment
 * already recorded with another transaction) ends it. Never rejects: the modal polls either way.
 * Resolves true once the server has the receipt.
 */
export async function postRouteReceipt(
  intentId: string,
  txHash: string,
  client: ApiClient = api,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await client.request(
        `/api/route-intent/${encodeURIComponent(intentId)}/receipt`,
        routeReceiptResponseSchema,
        { method: 'POST', body: { txHash }, queueWhenOffline: false },
      )
      return true
    } catch (error) {
      const delayMs = receiptRetryDelaysMs[attempt]
      if (!isWorthRetrying(error) || delayMs === undefined) {
        console.warn('The payment receipt could not be posted', error)
        return false
      }
      await sleep(delayMs)
    }
  }
}

/** A network failure, a time-out, a rate limit or a server error may pass; a 4xx answer will not. */
function isWorthRetrying(error: unknown): boolean {
  if (!(error instanceof AppError)) return true
  return error.status >= 500 || error.status === 429 || error.status === 408 || error.code === 'NETWORK'
}
