import type { InvoiceState } from '@quicklinks/core/api/invoices'

/** What the verified records say about an invoice, read under its row lock. */
export type InvoiceFacts = {
  amountUnits: bigint
  toleranceBps: number
  expiresAt: Date
  /** Sum of every credited payment (invoice_payments). */
  paidUnits: bigint
  /** Sum of the credits that arrived (the tracker saw them on chain) by expiresAt. */
  paidOnTimeUnits: bigint
  /** A payment of it is on chain and not final yet (its source transaction is the route's and mined). */
  isInFlight: boolean
  /** A payment of it was refunded to its payer by the provider (final). */
  hasRefund: boolean
  /** The clock (epoch ms). */
  nowMs: number
}

/** The states an invoice no longer leaves by a new route: it takes no more payments. */
export const settledInvoiceStates: readonly InvoiceState[] = ['paid', 'paid_over', 'paid_late', 'refunded']

/**
 * The least an invoice needs to count as paid, and the most before it is paid_over: amount ×
 * (1 ∓ toleranceBps / 10 000), the lower bound rounded up and the upper one down, so a tolerance
 * never lets a payment below the lower bound count as paid.
 */
export function getInvoiceBounds(
  amountUnits: bigint,
  toleranceBps: number,
): { lower: bigint; upper: bigint } {
  const tolerance = BigInt(toleranceBps)
  const lowerNumerator = amountUnits * (10_000n - tolerance)
  const lower = (lowerNumerator + 9_999n) / 10_000n
  const upper = (amountUnits * (10_000n + tolerance)) / 10_000n
  return { lower: lower > 0n ? lower : 1n, upper }
}

/**
 * The state the facts prove (docs/api.md#invoice-states); a pure function, so every instance and
 * every round comes to the same answer from the same records:
 * - enough paid (≥ lower bound): paid, or paid_over above the upper bound, when enough had arrived
 *   by expiresAt; paid_late when it took payments after expiresAt to get there;
 * - not enough: processing while a payment is in flight; else before expiresAt open (refunded when
 *   nothing was credited and a payment was refunded); after it underpaid when something was
 *   credited, refunded when a payment was refunded and nothing credited, else expired.
 */
export function decideInvoiceState(facts: InvoiceFacts): InvoiceState {
  const { lower, upper } = getInvoiceBounds(facts.amountUnits, facts.toleranceBps)
  if (facts.paidUnits >= lower) {
    if (facts.paidOnTimeUnits < lower) return 'paid_late'
    return facts.paidUnits > upper ? 'paid_over' : 'paid'
  }
  if (facts.isInFlight) return 'processing'
  if (facts.paidUnits === 0n && facts.hasRefund) return 'refunded'
  if (facts.nowMs < facts.expiresAt.getTime()) return 'open'
  return facts.paidUnits > 0n ? 'underpaid' : 'expired'
}
