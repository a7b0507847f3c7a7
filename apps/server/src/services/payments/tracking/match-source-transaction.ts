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
 * docs/decisions/0029). An x402 payment's transaction (the token's transferWithAuthorization with
 * the payer's signed authorization, docs/decisions/0031) may come from any sender, and may carry a
 * data suffix after the call. Gas and fees are the wallet's to choose. Returns null for a match,
 * else a sentence naming the first field that differs (it becomes the record's error message).
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
    x402?: unknown
  }
  const isX402 = request.x402 === true
  // A deposit's route is sent by the deposit operator for the deposit address, its payer
  // (payments/deposits/build-deposit-route.ts): the request then names its sender.
  const sender = typeof request.depositOperator === 'string' ? request.depositOperator : intent.fromAddress
  if (transaction.chainId !== undefined && transaction.chainId !== intent.fromChainId) {
    return `it was sent on chain ${transaction.chainId}, not ${intent.fromChainId}`
  }
  // An EIP-3009 authorization succeeds once, only with its own `to` and value: whoever submits it
  // (our facilitator, an external one) can only pay the route's receiver.
  if (!isX402 && transaction.from.toLowerCase() !== sender.toLowerCase()) {
    return 'it was sent by another wallet than the payer'
  }
  const routeTo = String(request.to ?? '').toLowerCase()
  const routeData = String(request.data ?? '').toLowerCase()
  const value = typeof request.value === 'string' && /^\d+$/.test(request.value) ? BigInt(request.value) : 0n
  const calls = listPayerCalls(transaction).filter((call) => call.to.toLowerCase() === routeTo)
  if (calls.length === 0) return "it calls another contract than the route's"
  const withData = calls.filter((call) =>
    isX402 ? call.data.toLowerCase().startsWith(routeData) : call.data.toLowerCase() === routeData,
  )
  if (withData.length === 0) return "its calldata is not the route's (receiver, token or amount differ)"
  if (!withData.some((call) => call.value === value)) return "its value is not the route's"
  return null
}

/** Whether an intent is an x402 payment's (its transaction is the token's transferWithAuthorization). */
export function isX402Intent(intent: Pick<RouteIntent, 'transactionRequest'>): boolean {
  return (intent.transactionRequest as { x402?: unknown }).x402 === true
}
