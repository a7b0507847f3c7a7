import { formatTokenAmount } from './pay-amount'
import type { TransactionRecord } from './transaction-record'

/** A payment's transaction as the success step and the status page list it. */
export type PaymentTransaction = { label: string; hash: string; url: string | null }

/**
 * The success step's sentence from the verified record (docs/product.md#step-result):
 * '{link name} received {amount} {symbol} on {chain name}.', the amount the chain showed the
 * receiver got in the link token's decimals, at most 6 fraction digits (docs/product.md#constants).
 * The link's token as the catalogue knows it wins; else the token the route delivers. Null while
 * the record names no verified amount or no token: the step then keeps its older sentence.
 */
export function getReceivedSentence(input: {
  linkName: string
  record: TransactionRecord | null
  linkToken: { symbol: string; decimals: number } | undefined
  chainName: string
}): string | null {
  const { record } = input
  const token = input.linkToken ?? record?.toToken ?? null
  if (record === null || record.toAmountWei === null || token === null) return null
  if (!/^\d+$/.test(record.toAmountWei)) return null
  const amount = formatTokenAmount(BigInt(record.toAmountWei), token.decimals, 6)
  return `${input.linkName} received ${amount} ${token.symbol} on ${input.chainName}.`
}

/**
 * Both transactions of a payment: the source, and the destination when it is another transaction
 * (a same-chain payment is delivered by its own transaction, listed once as 'Transaction').
 */
export function listPaymentTransactions(input: {
  sourceTxHash: string | null
  sourceTxUrl: string | null
  destTxHash: string | null
  destTxUrl: string | null
}): PaymentTransaction[] {
  const { sourceTxHash, destTxHash } = input
  const isOne =
    sourceTxHash === null || destTxHash === null || sourceTxHash.toLowerCase() === destTxHash.toLowerCase()
  if (isOne) {
    const hash = sourceTxHash ?? destTxHash
    const url = sourceTxHash === null ? input.destTxUrl : input.sourceTxUrl
    return hash === null ? [] : [{ label: 'Transaction', hash, url }]
  }
  return [
    { label: 'Source transaction', hash: sourceTxHash, url: input.sourceTxUrl },
    { label: 'Destination transaction', hash: destTxHash, url: input.destTxUrl },
  ]
}

/**
 * The success step's sentence when the record names no verified amount (docs/product.md#step-result): what an
 * invoice or amount link asked for, else what the payer sent, else what the link receives.
 */
export function getSentSentence(input: {
  linkName: string
  /** "12.5 USDC" for an invoice or a link with an amount, else ''. */
  dueText: string
  amount: bigint | undefined
  token: { symbol: string; decimals: number }
  /** "USDC on Base": what the link receives. */
  receives: string
}): string {
  if (input.dueText !== '') return `You paid ${input.dueText} to ${input.linkName}.`
  if (input.amount === undefined) return `${input.linkName} received ${input.receives}.`
  return `You sent ${formatTokenAmount(input.amount, input.token.decimals, 6)} ${input.token.symbol} to ${input.linkName}.`
}
