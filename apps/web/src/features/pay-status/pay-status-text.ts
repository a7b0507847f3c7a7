import type { PayStatus, PayStatusRefund, PayStatusState } from '@quicklinks/core/api/pay-status'
import { formatTokenAmount } from '../pay/pay-amount'

/**
 * The status page's words (docs/product.md#status-page): a title per state, what happened, and what
 * happens next in plain words. Pure, so the page's tests read every sentence.
 */

/** The state's title, shown as the page's status line. */
export const payStatusTitles: Record<PayStatusState, string> = {
  in_flight: 'Payment sent',
  bridging: 'On its way',
  delivered: 'Delivered',
  failed: 'Payment failed',
  refundable: 'Not delivered',
  refunded: 'Refunded',
}

/** A time as the page shows it: date and time in the reader's locale and time zone. */
export function formatPayTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** A wait as 'h:mm:ss' (or 'm:ss' under an hour). */
export function formatWait(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds))
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = String(seconds % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}

/** '{amount} {symbol}' of an integer amount, at most 6 decimals (docs/product.md#constants). */
export function formatPayAmount(value: string, token: { symbol: string; decimals: number }): string {
  return `${formatTokenAmount(BigInt(value), token.decimals, 6)} ${token.symbol}`.trim()
}

/**
 * What happened: '{link} received {amount} {symbol} on {chain}.' once delivered, else what the
 * payer sent and to whom.
 */
export function getPaySummary(status: PayStatus, getChainName: (chainId: number) => string): string {
  const name = status.linkName ?? 'The receiver'
  if (status.state === 'delivered' && status.toAmountReceived !== null) {
    return `${name} received ${formatPayAmount(status.toAmountReceived, status.toToken)} on ${getChainName(status.toChainId)}.`
  }
  const sent = formatPayAmount(status.fromAmount, status.fromToken)
  const to = status.linkName === null ? '' : ` to ${status.linkName}`
  return `You sent ${sent} on ${getChainName(status.fromChainId)}${to}.`
}

/** Whole minutes of the route's estimate, at least 1. */
function estimatedMinutes(status: PayStatus): number {
  return Math.max(1, Math.round(status.estimatedDurationMs / 60_000))
}

/** What happens next, in plain words, for each state. */
export function getNextStepText(status: PayStatus, getChainName: (chainId: number) => string): string {
  const refund = status.refund
  switch (status.state) {
    case 'in_flight':
      return `Your payment was sent. It is waiting for confirmation on ${getChainName(status.fromChainId)}.`
    case 'bridging': {
      const minutes = estimatedMinutes(status)
      const usually = `The bridge is delivering your payment. This usually takes about ${minutes} minute${minutes === 1 ? '' : 's'}.`
      if (refund === null) return usually
      return `${usually} If it is not delivered, you can take the deposit back from ${formatPayTime(refund.availableAt)}.`
    }
    case 'delivered':
      return 'Delivered. Nothing more to do.'
    case 'failed':
      return 'This payment did not go through. Funds not where you expected? Contact support with the transaction hash and we will help.'
    case 'refundable':
      if (refund === null || refund.available) {
        return 'The deposit was not filled. You can take it back now with the wallet that paid.'
      }
      return `The deposit was not filled. You can take it back from ${formatPayTime(refund.availableAt)}.`
    case 'refunded':
      return 'Refunded. The deposit went back to the wallet that paid. Nothing more to do.'
    default: {
      const unknown: never = status.state
      return unknown
    }
  }
}

/** What the refund panel offers the connected wallet, in order of what stands in the way. */
export type RefundStep =
  | { kind: 'connect' }
  | { kind: 'wrongWallet'; depositor: string }
  | { kind: 'wait'; secondsLeft: number }
  | { kind: 'wrongChain'; chainId: number }
  | { kind: 'ready' }

/**
 * The refund button's logic (docs/product.md#self-serve-refund): a wallet must be connected, be
 * the depositor (the contract pays the escrow back to it; the page sends from it only), the
 * contract's time must have come (counted down from the answer's `secondsUntilAvailable`, by the
 * source chain's clock), and the wallet must be on the deposit's chain.
 */
export function getRefundStep(input: {
  refund: PayStatusRefund
  address: string | undefined
  walletChainId: number | undefined
  /** Seconds since the answer that carried `refund`. */
  secondsSinceAnswer: number
}): RefundStep {
  const { refund } = input
  if (input.address === undefined) return { kind: 'connect' }
  if (input.address.toLowerCase() !== refund.depositor.toLowerCase()) {
    return { kind: 'wrongWallet', depositor: refund.depositor }
  }
  const secondsLeft = refund.available
    ? 0
    : Math.max(0, refund.secondsUntilAvailable - input.secondsSinceAnswer)
  if (secondsLeft > 0) return { kind: 'wait', secondsLeft: Math.ceil(secondsLeft) }
  if (input.walletChainId !== refund.chainId) return { kind: 'wrongChain', chainId: refund.chainId }
  return { kind: 'ready' }
}
