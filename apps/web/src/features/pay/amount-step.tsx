import { useEffect, useId, useRef } from 'react'
import { Button } from '../../ui/button'
import { classNames } from '../../ui/class-names'
import { toast } from '../../ui/use-toast'
import {
  type AmountToken,
  type AmountUnit,
  formatAmountForUnit,
  formatTokenAmount,
  formatUsd,
  getShareOfBalance,
  getUsdValue,
  hasUsdPrice,
  parseAmountText,
  percentShortcuts,
  validateAmount,
} from './pay-amount'

export type AmountStepProps = {
  token: AmountToken & { symbol: string }
  networkName: string
  /** Smallest units; null while loading. */
  balance: bigint | null
  text: string
  unit: AmountUnit
  onChange: (text: string, unit: AmountUnit) => void
  onBack: () => void
  onNext: () => void
}

/** Step 2 'Select Amount' (docs/product.md#step-amount). */
export function AmountStep({
  token,
  networkName,
  balance,
  text,
  unit,
  onChange,
  onBack,
  onNext,
}: AmountStepProps) {
  const inputId = useId()
  const usdAllowed = hasUsdPrice(token)
  // Forced to TOKEN without a positive USD price.
  const activeUnit: AmountUnit = unit === 'USD' && !usdAllowed ? 'TOKEN' : unit
  const amount = parseAmountText(text, activeUnit, token)
  const error = validateAmount(amount, balance)
  const shownError = text.trim().length > 0 ? error : null
  const isValid = error === null
  const toastedFor = useRef<string | null>(null)

  useEffect(() => {
    // One 'Check amount' toast per failure episode.
    if (shownError === null) {
      toastedFor.current = null
      return
    }
    if (toastedFor.current !== null) return
    toastedFor.current = shownError
    toast({ title: 'Check amount', description: shownError, variant: 'destructive' })
  }, [shownError])

  const changeUnit = (next: AmountUnit) => {
    if (next === activeUnit) return
    onChange(amount === undefined ? '' : formatAmountForUnit(amount, next, token), next)
  }
  const units: { value: AmountUnit; label: string; disabled: boolean }[] = [
    { value: 'USD', label: 'USD', disabled: !usdAllowed },
    { value: 'TOKEN', label: token.symbol, disabled: false },
    { value: 'WEI', label: 'WEI', disabled: false },
  ]
  const usd = amount === undefined ? undefined : getUsdValue(amount, token)

  return (
    <form
      className="grid gap-5"
      onSubmit={(event) => {
        event.preventDefault()
        if (isValid) onNext()
      }}
    >
      <p className="text-muted text-sm">
        You'll pay in {token.symbol} on {networkName}
      </p>
      <fieldset className="flex gap-1 rounded-control bg-subtle p-1">
        <legend className="sr-only">Unit</legend>
        {units.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={option.value === activeUnit}
            disabled={option.disabled}
            onClick={() => changeUnit(option.value)}
            className={classNames(
              'min-h-11 flex-1 rounded-control font-medium text-sm disabled:cursor-not-allowed disabled:opacity-45',
              option.value === activeUnit ? 'bg-surface text-fg shadow-sm' : 'text-muted',
            )}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
      <div className="grid gap-1.5">
        <label htmlFor={inputId} className="font-medium text-sm">
          Amount
        </label>
        <input
          id={inputId}
          type="text"
          inputMode={activeUnit === 'WEI' ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={text}
          placeholder={activeUnit === 'WEI' ? '0' : '0.00'}
          aria-invalid={shownError === null ? undefined : true}
          aria-describedby={`${inputId}-error`}
          onChange={(event) => onChange(event.target.value, activeUnit)}
          className="min-h-14 w-full rounded-control border border-border bg-surface px-4 font-semibold text-2xl tabular-nums outline-none focus-visible:border-accent aria-invalid:border-danger"
        />
        <p id={`${inputId}-error`} role="alert" className="min-h-5 text-danger text-sm">
          {shownError ?? ''}
        </p>
      </div>
      <div className="grid grid-cols-4 gap-2">
        {percentShortcuts.map((percent) => (
          <Button
            key={percent}
            variant="secondary"
            size="compact"
            disabled={balance === null}
            onClick={() => {
              if (balance === null) return
              onChange(
                formatAmountForUnit(getShareOfBalance(balance, percent), activeUnit, token),
                activeUnit,
              )
            }}
          >
            {percent === 100 ? 'MAX' : `${percent}%`}
          </Button>
        ))}
      </div>
      <dl className="grid gap-2 rounded-control bg-subtle px-4 py-3 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Available</dt>
          <dd className="text-right tabular-nums">
            {balance === null
              ? 'Loading…'
              : `${formatTokenAmount(balance, token.decimals, 6)} ${token.symbol}`}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Entered</dt>
          <dd className="min-w-0 text-right tabular-nums">
            {amount === undefined ? (
              '—'
            ) : (
              <>
                <span className="block">
                  {formatTokenAmount(amount, token.decimals, 8)} {token.symbol}
                </span>
                {usd === undefined ? null : (
                  <span className="block text-muted text-xs">≈ {formatUsd(usd)}</span>
                )}
                <span className="block break-all font-mono text-muted text-xs">{amount.toString()} wei</span>
              </>
            )}
          </dd>
        </div>
      </dl>
      <div className="grid grid-cols-2 gap-3">
        <Button variant="secondary" size="lg" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" size="lg" disabled={!isValid}>
          Next
        </Button>
      </div>
    </form>
  )
}
