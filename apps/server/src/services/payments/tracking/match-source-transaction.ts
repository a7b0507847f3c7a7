import type { Transaction } from 'viem'
import type { RouteIntent } from '../../../db/schema.ts'

/** Why a transaction is not the route's: null when it is. */
export type SourceMismatch = string | null

/**
 * Whether a transaction is the one the route asked the payer's wallet to send: on the route's
 * source chain, from the payer (a deposit's route: the deposit operator its request names), to the route's contract, with exactly its calldata and value.
 * Gas and fees are the wallet's to choose. Returns null for a match, else a sentence naming the
 * first field that differs (it becomes the record's error message).
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
  if ((transaction.to ?? '').toLowerCase() !== String(request.to ?? '').toLowerCase()) {
    return "it calls another contract than the route's"
  }
  if (transaction.input.toLowerCase() !== String(request.data ?? '').toLowerCase()) {
    return "its calldata is not the route's (receiver, token or amount differ)"
  }
  const value = typeof request.value === 'string' && /^\d+$/.test(request.value) ? BigInt(request.value) : 0n
  if (transaction.value !== value) return "its value is not the route's"
  return null
}
