import type { RouteResult } from '@quicklinks/core/api/routing'
import { Lock } from 'lucide-react'
import { useId } from 'react'
import { Button } from '../../ui/button'
import { readFixedQuote } from './fixed-amount'
import { formatTokenAmount, validateAmount } from './pay-amount'
import type { RouteInput, RouteState } from './route-builder'
import { useRouteState } from './use-route-state'

export type LockedAmountStepProps = {
  /** 'Amount due' for an invoice (what remains), 'Amount' for a link with an amount. */
  label: string
  /** What the receiver must get, in the link token's smallest unit; undefined while loading. */
  due: bigint | undefined
  /** The link's token: what the amount is in. */
  dueToken: { symbol: string; decimals: number }
  /** The token the payer chose, and its chain's name. */
  token: { symbol: string; decimals: number }
  networkName: string
  /** The payer's balance of `token`; null while loading. */
  balance: bigint | null
  /** The exact-output quote of `due` in `token`. */
  route: RouteState
  onBack: () => void
  onNext: () => void
}

/** What the chosen token must send, or the reason Next is off (docs/product.md#paying-an-invoice-or-an-amount-link). */
function describeQuote(route: RouteState, balance: bigint | null) {
  if (route.status !== 'ready') {
    return {
      fromAmount: undefined,
      excess: null,
      problem: route.status === 'error' ? route.message : null,
    }
  }
  const { fromAmount, excess } = readFixedQuote(route.route.estimate)
  const problem = fromAmount === undefined ? 'Route build failed.' : validateAmount(fromAmount, balance)
  return {
    fromAmount,
    excess,
    problem: problem === 'Enter a valid amount.' ? 'Route build failed.' : problem,
  }
}

/**
 * Step 2 for an invoice or a link with an amount: the amount is shown locked (read-only), and what
 * the chosen token must send for the receiver to get it (an exact-output quote) with the extra it
 * includes to cover price movement. Next waits for the quote and a balance that covers it.
 */
export function LockedAmountStep(props: LockedAmountStepProps) {
  const inputId = useId()
  const { fromAmount, excess, problem } = describeQuote(props.route, props.balance)
  const dueText =
    props.due === undefined
      ? ''
      : `${formatTokenAmount(props.due, props.dueToken.decimals)} ${props.dueToken.symbol}`
  const canContinue = fromAmount !== undefined && problem === null
  return (
    <form
      className="grid gap-5"
      onSubmit={(event) => {
        event.preventDefault()
        if (canContinue) props.onNext()
      }}
    >
      <p className="text-muted text-sm">
        You'll pay in {props.token.symbol} on {props.networkName}
      </p>
      <div className="grid gap-1.5">
        <label htmlFor={inputId} className="flex items-center gap-1.5 font-medium text-sm">
          <Lock aria-hidden="true" className="size-3.5 text-muted" />
          {props.label}
        </label>
        <input
          id={inputId}
          type="text"
          readOnly
          value={dueText}
          placeholder="Loading…"
          aria-describedby={`${inputId}-hint`}
          className="min-h-14 w-full cursor-default rounded-control border border-border bg-subtle px-4 font-semibold text-2xl tabular-nums outline-none focus-visible:border-accent"
        />
        <p id={`${inputId}-hint`} className="text-muted text-sm">
          Set by the receiver: it cannot be changed.
        </p>
      </div>
      <dl className="grid gap-2 rounded-control bg-subtle px-4 py-3 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">You pay</dt>
          <dd className="min-w-0 break-all text-right font-medium tabular-nums" aria-live="polite">
            {fromAmount !== undefined
              ? `≈ ${formatTokenAmount(fromAmount, props.token.decimals, 8)} ${props.token.symbol}`
              : props.route.status === 'error'
                ? '—'
                : 'Quoting…'}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Available</dt>
          <dd className="text-right tabular-nums">
            {props.balance === null
              ? 'Loading…'
              : `${formatTokenAmount(props.balance, props.token.decimals, 6)} ${props.token.symbol}`}
          </dd>
        </div>
      </dl>
      {excess === null ? null : (
        <p className="text-muted text-sm">
          Includes about {formatTokenAmount(excess, props.dueToken.decimals, 6)} {props.dueToken.symbol} extra
          to cover price movement.
        </p>
      )}
      <p role="alert" className="min-h-5 text-danger text-sm">
        {problem ?? ''}
      </p>
      <div className="grid grid-cols-2 gap-3">
        <Button variant="secondary" size="lg" onClick={props.onBack}>
          Back
        </Button>
        <Button type="submit" size="lg" disabled={!canContinue}>
          Next
        </Button>
      </div>
    </form>
  )
}

/** LockedAmountStep with its quote: the exact-output route of `input`, rebuilt every 60 s. */
export function QuotedLockedAmountStep({
  input,
  build,
  ...props
}: Omit<LockedAmountStepProps, 'route'> & {
  input: RouteInput | null
  /** Tests pass their own; the API's by default. */
  build?: ((input: RouteInput, signal: AbortSignal) => Promise<RouteResult>) | undefined
}) {
  const { route } = useRouteState(true, input, build)
  return <LockedAmountStep {...props} route={route} />
}
