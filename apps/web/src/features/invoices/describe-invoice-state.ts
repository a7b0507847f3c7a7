import type { PublicInvoice } from '@quicklinks/core/api/invoices'

/** What the invoice page says of a state, and whether it still offers to pay. */
export type InvoiceStateView = { label: string; sentence: string | null; canPay: boolean }

/**
 * The invoice page's words for each state (docs/product.md#paying-an-invoice-or-an-amount-link):
 * an open invoice (or one with a payment on its way and something left to pay) offers to pay until
 * it expires; every other state says what happened instead. `nowMs` decides expiry between reads.
 */
export function describeInvoiceState(invoice: PublicInvoice, nowMs: number): InvoiceStateView {
  const due = `${invoice.amountDue} ${invoice.token.symbol}`
  const paid = `${invoice.amountPaid} of ${invoice.amount} ${invoice.token.symbol}`
  const isPastExpiry = Date.parse(invoice.expiresAt) <= nowMs
  const hasDue = /[1-9]/.test(invoice.amountDue)
  switch (invoice.state) {
    case 'open':
      return isPastExpiry
        ? { label: 'Expired', sentence: 'This invoice has expired: ask for a new one.', canPay: false }
        : { label: 'Open', sentence: null, canPay: hasDue }
    case 'processing':
      if (hasDue && !isPastExpiry) {
        return { label: 'Partly paid', sentence: `${paid} arrived; ${due} is left to pay.`, canPay: true }
      }
      return { label: 'Processing', sentence: 'A payment is being confirmed on chain.', canPay: false }
    case 'paid':
      return { label: 'Paid', sentence: 'This invoice is paid. Nothing more is due.', canPay: false }
    case 'paid_over':
      return {
        label: 'Paid',
        sentence: `This invoice is paid: ${paid} arrived, more than was due.`,
        canPay: false,
      }
    case 'paid_late':
      return {
        label: 'Paid late',
        sentence: 'This invoice was paid in full after it expired. Nothing more is due.',
        canPay: false,
      }
    case 'underpaid':
      return {
        label: 'Underpaid',
        sentence: `This invoice expired with ${paid} paid. Ask the receiver how to settle the rest.`,
        canPay: false,
      }
    case 'expired':
      return {
        label: 'Expired',
        sentence: 'This invoice expired before it was paid: ask for a new one.',
        canPay: false,
      }
    case 'refunded':
      return { label: 'Refunded', sentence: 'This invoice was refunded.', canPay: false }
    default: {
      const unknownState: never = invoice.state
      return unknownState
    }
  }
}

/** 'Expires in 14:59', 'Expires in 2 h 5 min', 'Expires in 3 days'; 'Expired' once past. */
export function formatExpiry(expiresAtMs: number, nowMs: number): string {
  const seconds = Math.floor((expiresAtMs - nowMs) / 1000)
  if (seconds <= 0) return 'Expired'
  if (seconds < 3600) {
    const minutes = Math.floor(seconds / 60)
    return `Expires in ${minutes}:${String(seconds % 60).padStart(2, '0')}`
  }
  if (seconds < 2 * 86_400)
    return `Expires in ${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`
  return `Expires in ${Math.floor(seconds / 86_400)} days`
}
