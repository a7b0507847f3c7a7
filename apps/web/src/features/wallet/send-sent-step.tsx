import { CheckCircle2, ExternalLink } from 'lucide-react'
import type { RefObject } from 'react'
import { maskMiddle } from '../../lib/format'
import { Button } from '../../ui/button'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import { formatTokenAmount } from '../pay/pay-amount'
import type { SendDialogToken, SendPhase } from './send-dialog-state'

export type SendSentStepProps = {
  phase: Extract<SendPhase, { name: 'sent' }>
  token: SendDialogToken
  chainName: string
  /** The explorer's page of the transaction, or null without an explorer. */
  transactionUrl: string | null
  /** Focused when the outcome shows. */
  resultRef: RefObject<HTMLDivElement | null>
  onDone: () => void
}

/** 'Sent': what went where, the transaction (linked to the explorer) and the new balance once refreshed. */
export function SendSentStep({
  phase,
  token,
  chainName,
  transactionUrl,
  resultRef,
  onDone,
}: SendSentStepProps) {
  const hash = phase.result.transactionHash
  return (
    <div>
      <DialogTitle>Sent</DialogTitle>
      <DialogDescription>
        {formatTokenAmount(phase.amount, token.decimals)} {token.symbol} went to{' '}
        <span className="font-mono">{maskMiddle(phase.recipient)}</span> on {chainName}.
      </DialogDescription>
      <div
        ref={resultRef}
        tabIndex={-1}
        className="mt-5 grid gap-3 rounded-control bg-subtle p-4 text-sm outline-none"
      >
        <p className="flex items-center gap-2 font-medium text-success" role="status">
          <CheckCircle2 aria-hidden="true" className="size-5" />
          Transfer included{phase.result.sponsored ? ' · gas sponsored' : ''}
        </p>
        <dl className="grid gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="text-muted">Transaction</dt>
            <dd className="font-mono">
              {transactionUrl === null ? (
                <span title={hash}>{maskMiddle(hash, 6, 6)}</span>
              ) : (
                <a
                  href={transactionUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={hash}
                  className="inline-flex min-h-11 items-center gap-1 text-accent underline-offset-2 hover:underline"
                >
                  {maskMiddle(hash, 6, 6)}
                  <ExternalLink aria-hidden="true" className="size-3.5" />
                  <span className="sr-only"> (view in the explorer, opens in a new tab)</span>
                </a>
              )}
            </dd>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="text-muted">New balance</dt>
            <dd className="tabular-nums" aria-busy={phase.isRefreshing}>
              {phase.isRefreshing || token.balance === null
                ? 'Updating…'
                : `${formatTokenAmount(token.balance, token.decimals)} ${token.symbol}`}
            </dd>
          </div>
        </dl>
      </div>
      <div className="mt-6 flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  )
}
