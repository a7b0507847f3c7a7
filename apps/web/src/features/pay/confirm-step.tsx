import { CheckCircle2, Clock, Route as RouteIcon, TriangleAlert } from 'lucide-react'
import { maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { Spinner } from '../../ui/spinner'
import { describeRouteLine } from './confirm-messages'
import { formatTokenAmount, formatUsd } from './pay-amount'
import { formatCountdown } from './payment-progress'
import type { RouteState } from './route-builder'

export type ConfirmStepProps = {
  amount: bigint
  token: { symbol: string; decimals: number }
  usdValue: number | undefined
  networkName: string
  receiverAddress: string
  receives: string
  isNative: boolean
  spender: string | null
  /** Null while unknown (being read). */
  allowance: bigint | null
  isCheckingAllowance: boolean
  /** Which approval is in flight. */
  approving: 'exact' | 'max' | null
  route: RouteState
  messages: readonly string[]
  secondsLeft: number
  canConfirm: boolean
  isConfirming: boolean
  /**
   * How Confirm & Pay carries the approval when the allowance is short (a batch or a permit), shown
   * beside the approve buttons; null when the payer approves first.
   */
  approvalNote?: string | null | undefined
  onApprove: (kind: 'exact' | 'max') => void
  onBack: () => void
  onConfirm: () => void
  /** The primary button's label: 'Confirm & Pay' unless the caller names another (the Self Swap's). */
  confirmLabel?: string | undefined
}

const zeroAddress = '0x0000000000000000000000000000000000000000'

/** Masked 6…4; the all-zero address is shown in full (docs/product.md#step-confirm). */
function maskReceiver(address: string): string {
  return address.toLowerCase() === zeroAddress ? address : maskMiddle(address)
}

/** Step 3 'Confirm Payment' (docs/product.md#step-confirm, docs/product.md#confirm-messages). */
export function ConfirmStep(props: ConfirmStepProps) {
  const { route } = props
  const needsApproval = !props.isNative && (props.allowance === null || props.amount > props.allowance)
  const routeLine = describeRouteLine(route)
  // At most 6 decimals, cut; when that hides digits the exact amount shows too (docs/product.md#amounts).
  const shownAmount = formatTokenAmount(props.amount, props.token.decimals, 6)
  const exactAmount = formatTokenAmount(props.amount, props.token.decimals)
  const otherMessages = props.messages.filter(
    (message) => message !== routeLine && !routeLine.endsWith(message),
  )
  return (
    <div className="grid gap-4">
      <p className="text-muted text-sm">Review the details before confirming.</p>
      <div className="rounded-control border border-border px-4 py-3">
        <p className="text-muted text-xs">Send exactly</p>
        <p className="mt-1 break-all font-semibold text-2xl tabular-nums">
          {shownAmount} {props.token.symbol}
        </p>
        {shownAmount === exactAmount ? null : (
          <p className="break-all text-muted text-xs tabular-nums">
            Exactly {exactAmount} {props.token.symbol}
          </p>
        )}
        <p className="text-muted text-sm tabular-nums">
          {props.usdValue === undefined ? null : `≈ ${formatUsd(props.usdValue)} · `}on {props.networkName}
        </p>
      </div>
      {props.isNative ? null : (
        <div className="grid gap-3 rounded-control bg-subtle px-4 py-3 text-sm">
          <div className="flex justify-between gap-3">
            <span className="text-muted">Spender</span>
            <span className="font-mono" title={props.spender ?? undefined}>
              {props.spender === null ? '—' : maskMiddle(props.spender)}
            </span>
          </div>
          <div className="flex justify-between gap-3">
            <span className="text-muted">Allowance</span>
            <span className="tabular-nums">
              {props.isCheckingAllowance || props.allowance === null
                ? 'Loading…'
                : `${formatTokenAmount(props.allowance, props.token.decimals, 6)} ${props.token.symbol}`}
            </span>
          </div>
          {props.spender === null || !needsApproval || !props.approvalNote ? null : (
            <p className="text-sm text-success">{props.approvalNote}</p>
          )}
          {props.spender === null ? null : needsApproval ? (
            <div className="grid grid-cols-2 gap-2">
              <Button
                variant="secondary"
                size="compact"
                disabled={props.approving !== null || props.isCheckingAllowance}
                isBusy={props.approving === 'exact'}
                onClick={() => props.onApprove('exact')}
              >
                Approve Exact
              </Button>
              <Button
                variant="secondary"
                size="compact"
                disabled={props.approving !== null || props.isCheckingAllowance}
                isBusy={props.approving === 'max'}
                onClick={() => props.onApprove('max')}
              >
                Approve Max
              </Button>
            </div>
          ) : props.allowance === null ? null : (
            <p className="font-medium text-success">Allowance sufficient ✓</p>
          )}
        </div>
      )}
      <p
        aria-live="polite"
        className={classNames(
          'flex min-h-6 items-center gap-2 text-sm',
          route.status === 'error' ? 'text-danger' : route.status === 'ready' ? 'text-success' : 'text-muted',
        )}
      >
        {route.status === 'building' ? (
          <Spinner className="size-4" />
        ) : route.status === 'ready' ? (
          <CheckCircle2 aria-hidden="true" className="size-4" />
        ) : route.status === 'error' ? (
          <TriangleAlert aria-hidden="true" className="size-4" />
        ) : (
          <RouteIcon aria-hidden="true" className="size-4" />
        )}
        {routeLine}
      </p>
      {otherMessages.length === 0 ? null : (
        <ul className="grid gap-1 text-danger text-sm">
          {otherMessages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <dl className="grid gap-2 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-muted">Receiving address</dt>
          <dd className="font-mono" title={props.receiverAddress}>
            {maskReceiver(props.receiverAddress)}
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-muted">Receiver gets</dt>
          <dd className="text-right">{props.receives}</dd>
        </div>
        <div className="flex items-center justify-between gap-3">
          <dt className="flex items-center gap-1.5 text-muted">
            <Clock aria-hidden="true" className="size-4" />
            Time left to complete payment
          </dt>
          <dd className="font-semibold tabular-nums" aria-live="off">
            {formatCountdown(props.secondsLeft)}
          </dd>
        </div>
      </dl>
      <div className="grid grid-cols-2 gap-3">
        <Button variant="secondary" size="lg" onClick={props.onBack} disabled={props.isConfirming}>
          Back
        </Button>
        <Button size="lg" disabled={!props.canConfirm} isBusy={props.isConfirming} onClick={props.onConfirm}>
          {props.confirmLabel ?? 'Confirm & Pay'}
        </Button>
      </div>
    </div>
  )
}
