import type { Payment, PaymentRouteKind, PaymentState } from '@quicklinks/core/api/payments'
import { ExternalLink } from 'lucide-react'
import { maskMiddle } from '../../lib/format'
import { classNames } from '../../ui/class-names'

/** What each state reads as (docs/product.md#payments-tab). */
export const paymentStateLabels: Record<PaymentState, string> = {
  submitted: 'Submitted',
  bridging: 'Bridging',
  success: 'Received',
  failed: 'Failed',
}

const stateClassNames: Record<PaymentState, string> = {
  submitted: 'bg-subtle text-fg',
  bridging: 'bg-accent-soft text-accent',
  success: 'bg-success-soft text-success',
  failed: 'bg-danger-soft text-danger',
}

const routeKindLabels: Record<PaymentRouteKind, string> = {
  transfer: 'Transfer',
  swap: 'Swap',
  bridge: 'Bridge',
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** A transaction hash (6…4) linking to its explorer page when the chain has one. */
function HashLink({ label, hash, url }: { label: string; hash: string | null; url: string | null }) {
  if (hash === null) {
    return (
      <span>
        <span className="text-muted">{label}</span> <span>not yet</span>
      </span>
    )
  }
  return (
    <span className="inline-flex items-center gap-1">
      <span className="text-muted">{label}</span>
      {url === null ? (
        <span className="font-mono" title={hash}>
          {maskMiddle(hash)}
        </span>
      ) : (
        <a
          href={url}
          target="_blank"
          rel="noreferrer"
          title={hash}
          aria-label={`${label} ${maskMiddle(hash)} in the explorer`}
          className="inline-flex min-h-11 items-center gap-1 font-mono text-accent underline-offset-2 hover:underline md:min-h-0"
        >
          {maskMiddle(hash)}
          <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
      )}
    </span>
  )
}

/**
 * A decimal string shown with at most 6 fraction digits, cut, not rounded (docs/product.md#constants:
 * displayed amounts up to 6 decimals); the CSV keeps every digit.
 */
export function shortenDecimal(text: string): string {
  const [whole, fraction = ''] = text.split('.')
  const kept = fraction.slice(0, 6).replace(/0+$/, '')
  return kept === '' ? (whole ?? text) : `${whole}.${kept}`
}

/**
 * One payment in the Payments tab: a card at phone width, a compact row from md up. What the
 * receiver got (or what is on its way), the state, the route kind and what was paid in, the payer,
 * the time and both transactions.
 */
export function PaymentItem({ payment, showLink }: { payment: Payment; showLink: boolean }) {
  const received =
    payment.amountReceived === null ? null : `${payment.amountReceived} ${payment.toToken.symbol}`.trim()
  return (
    <article
      aria-label={`Payment ${maskMiddle(payment.intentId)}`}
      className="grid gap-2 rounded-card border border-border bg-surface p-4 text-sm shadow-card md:grid-cols-[1.2fr_1fr_1.4fr] md:items-start md:gap-4"
    >
      <div className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-base">{received ?? 'Not received yet'}</span>
          <span
            className={classNames(
              'rounded-full px-2 py-0.5 font-medium text-xs',
              stateClassNames[payment.state],
            )}
          >
            {paymentStateLabels[payment.state]}
          </span>
        </div>
        <span className="text-muted">
          {routeKindLabels[payment.routeKind]} · paid {shortenDecimal(payment.amountIn)}{' '}
          {payment.fromToken.symbol}
        </span>
        {showLink ? <span className="truncate text-muted">{payment.linkName}</span> : null}
      </div>
      <div className="grid gap-1">
        <span>
          <span className="text-muted">From</span>{' '}
          <span className="font-mono" title={payment.payer}>
            {maskMiddle(payment.payer)}
          </span>
        </span>
        <time dateTime={payment.createdAt} className="text-muted">
          {timeFormat.format(new Date(payment.createdAt))}
        </time>
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 md:grid md:gap-1">
        <HashLink label="Source tx" hash={payment.sourceTxHash} url={payment.sourceTxUrl} />
        <HashLink label="Destination tx" hash={payment.destTxHash} url={payment.destTxUrl} />
      </div>
    </article>
  )
}
