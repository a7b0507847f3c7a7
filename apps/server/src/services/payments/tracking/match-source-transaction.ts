import type { Transaction } from 'viem'
import type { RouteIntent } from '../../../db/schema.ts'
import { listPayerCalls } from './list-payer-calls.ts'

/** Why a transaction is not the route's: null when it is. */
export type SourceMismatch = string | null

/**
 * Whether a transaction is the one the route asked the payer's wallet to send: on the route's
 * source chain, from the payer (a deposit's route: the deposit operator its request names),
 * calling the route's contract with exactly its calldata and value, either directly or as one
 * call of the payer's ERC-5792 batch, or wrapped in PayRouter's permitAndCall (`listPayerCalls`,
 * docs/decisions/0029). Gas and fees are the wallet's to choose. Returns null for a match, else a
 * sentence naming the first field that differs (it becomes the record's error message).
 */
export function matchSourceTransaction(
  intent: Pick<RouteIntent, 'fromChainId' | 'fromAddress' | 'transactionRequest'>,
  transaction: Pick<Transaction, 'from' | 'to' | 'input' | 'value' | 'chainId'>,
): SourceMismatch {
  const request = intent.transactionRequest as {
    to?: unknown
    data?: unknown
    value?: unknown
    depositOperator?: unknown
  }
  // A deposit's route is sent by the deposit operator for the deposit address, its payer
  // (payments/deposits/build-deposit-route.ts): the request then names its sender.
  const sender = typeof request.depositOperator === 'string' ? request.depositOperator : intent.fromAddress
  if (transaction.chainId !== undefined && transaction.chainId !== intent.fromChainId) {
    return `it was sent on chain ${transaction.chainId}, not ${intent.fromChainId}`
  }
  if (transaction.from.toLowerCase() !== sender.toLowerCase()) {
    return 'it was sent by another wallet than the payer'
  }
  const routeTo = String(request.to ?? '').toLowerCase()
  const routeData = String(request.data ?? '').toLowerCase()
  const value = typeof request.value === 'string' && /^\d+$/.test(request.value) ? BigInt(request.value) : 0n
  const calls = listPayerCalls(transaction).filter((call) => call.to.toLowerCase() === routeTo)
  if (calls.length === 0) return "it calls another contract than the route's"
  const withData = calls.filter((call) => call.data.toLowerCase() === routeData)
  if (withData.length === 0) return "its calldata is not the route's (receiver, token or amount differ)"
  if (!withData.some((call) => call.value === value)) return "its value is not the route's"
  return null
}
