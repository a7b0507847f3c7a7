import { CheckCircle2, CircleDashed, XCircle } from 'lucide-react'
import { classNames } from '../../ui/class-names'
import { Spinner } from '../../ui/spinner'
import { formatCountdown, getProgressPercent, getRemainingSeconds } from './payment-progress'
import type { RouteStep, TransactionRecord } from './transaction-record'
import { TxLink } from './tx-link'

export type ProcessingStepProps = {
  record: TransactionRecord | undefined
  /** When the payment was sent (the countdown's start when the record has no create date). */
  submittedAtMs: number
  nowMs: number
  sourceTxHash: string
  getChainName: (chainId: number) => string
}

const stepLabels: Record<RouteStep['kind'], string> = {
  swap: 'Swap',
  bridge: 'Bridge',
  transfer: 'Transfer',
  other: 'Step',
}

/**
 * Step 4 'Payment Confirmation' (docs/product.md#step-processing): ring, status, countdown,
 * timeline, links.
 */
export function ProcessingStep({
  record,
  submittedAtMs,
  nowMs,
  sourceTxHash,
  getChainName,
}: ProcessingStepProps) {
  const status = record?.status ?? null
  const steps = record?.steps ?? []
  const percent = getProgressPercent(status, steps)
  const createdAt = Date.parse(record?.createDate ?? '')
  const remaining = getRemainingSeconds(steps, Number.isFinite(createdAt) ? createdAt : submittedAtMs, nowMs)
  const statusText = status === 'success' ? 'Confirmed' : status === 'failed' ? 'Failed' : 'Confirming...'
  const isVerified = status === 'bridging' || status === 'success'
  const sourceHash = record?.sourceTxHash ?? sourceTxHash
  const radius = 52
  const circumference = 2 * Math.PI * radius

  return (
    <div className="grid gap-5">
      <div className="flex flex-col items-center gap-3">
        <div
          role="progressbar"
          aria-label="Payment progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="relative size-32"
        >
          <svg viewBox="0 0 120 120" className="size-32 -rotate-90" aria-hidden="true">
            <circle cx="60" cy="60" r={radius} fill="none" strokeWidth="10" className="stroke-subtle" />
            <circle
              cx="60"
              cy="60"
              r={radius}
              fill="none"
              strokeWidth="10"
              strokeLinecap="round"
              strokeDasharray={circumference}
              strokeDashoffset={circumference * (1 - percent / 100)}
              className={classNames(
                'transition-[stroke-dashoffset] duration-500',
                status === 'failed'
                  ? 'stroke-danger'
                  : status === 'success'
                    ? 'stroke-success'
                    : 'stroke-accent',
              )}
            />
          </svg>
          <span className="absolute inset-0 flex flex-col items-center justify-center">
            <span className="font-semibold text-2xl tabular-nums">{percent}%</span>
            <span className="text-muted text-xs">complete</span>
          </span>
        </div>
        <p
          aria-live="polite"
          className={classNames(
            'font-semibold',
            status === 'failed' ? 'text-danger' : status === 'success' ? 'text-success' : undefined,
          )}
        >
          {statusText}
        </p>
        <p className="text-center text-muted text-sm">
          Processing secure transaction. Do not close this window until confirmation.
        </p>
        <p className="text-sm tabular-nums">
          <span className="text-muted">Estimated time left </span>
          <span className="font-semibold">{formatCountdown(remaining, true)}</span>
        </p>
      </div>
      <section aria-label="Route steps" className="rounded-control bg-subtle px-4 py-3">
        {steps.length === 0 ? (
          <p className="text-muted text-sm">Waiting for route details…</p>
        ) : (
          <ol className="grid gap-2">
            {steps.map((step, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are a fixed route in order; the position is the identity
              <li key={index} className="flex items-center gap-2 text-sm">
                <StepIcon status={step.status} />
                <span className="font-medium">{stepLabels[step.kind]}</span>
                <span className="min-w-0 flex-1 truncate text-muted">
                  {step.tokenIn}
                  {step.tokenOut.length > 0 && step.tokenOut !== step.tokenIn ? ` → ${step.tokenOut}` : ''} on{' '}
                  {getChainName(step.kind === 'bridge' ? step.dstChainId : step.chainId)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <dl className="grid gap-2 text-sm">
        <TxLink label="Source transaction" hash={sourceHash} url={record?.fromChainTxUrl ?? null} />
        {record?.destTxHash == null ? null : (
          <TxLink label="Destination transaction" hash={record.destTxHash} url={record.toChainTxUrl} />
        )}
      </dl>
      <ul className="grid gap-2 text-sm">
        <CheckLine
          state={status === 'failed' ? 'fail' : isVerified ? 'ok' : 'pending'}
          text={
            status === 'failed'
              ? 'Transaction failed'
              : isVerified
                ? 'Transaction verified'
                : 'Verifying transaction...'
          }
        />
        <CheckLine
          state={status === 'success' ? 'ok' : 'pending'}
          text={status === 'success' ? 'Confirmation complete' : 'Waiting for confirmation'}
        />
      </ul>
    </div>
  )
}

function StepIcon({ status }: { status: RouteStep['status'] }) {
  if (status === 'ok') return <CheckCircle2 aria-label="done" className="size-4 shrink-0 text-success" />
  if (status === 'fail') return <XCircle aria-label="failed" className="size-4 shrink-0 text-danger" />
  return (
    <CircleDashed
      aria-label="pending"
      className="size-4 shrink-0 animate-spin text-muted [animation-duration:3s]"
    />
  )
}

function CheckLine({ state, text }: { state: 'ok' | 'fail' | 'pending'; text: string }) {
  return (
    <li className="flex items-center gap-2">
      {state === 'ok' ? (
        <CheckCircle2 aria-hidden="true" className="size-4 text-success" />
      ) : state === 'fail' ? (
        <XCircle aria-hidden="true" className="size-4 text-danger" />
      ) : (
        <Spinner className="size-4 text-muted" />
      )}
      <span className={state === 'fail' ? 'text-danger' : undefined}>{text}</span>
    </li>
  )
}
