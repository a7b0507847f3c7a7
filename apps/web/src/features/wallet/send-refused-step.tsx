import type { RefObject } from 'react'
import { Button } from '../../ui/button'
import { DialogDescription, DialogTitle } from '../../ui/dialog'
import type { SendDialogChain } from './send-dialog-state'

export type SendRefusedStepProps = {
  /** Why the sponsor refused, as describeSendError words it. */
  message: string
  chain: SendDialogChain
  /** The account's native balance on the chain; null while unknown. */
  nativeBalance: bigint | null
  /** Focused when the outcome shows. */
  resultRef: RefObject<HTMLDivElement | null>
  onBack: () => void
  onPayGas: () => void
}

/** 'Gas not sponsored': why, and the offer to pay the gas from the account when it holds the native token. */
export function SendRefusedStep({
  message,
  chain,
  nativeBalance,
  resultRef,
  onBack,
  onPayGas,
}: SendRefusedStepProps) {
  const hasGasMoney = nativeBalance !== null && nativeBalance > 0n
  return (
    <div>
      <DialogTitle>Gas not sponsored</DialogTitle>
      <DialogDescription>Nothing was sent.</DialogDescription>
      <div ref={resultRef} tabIndex={-1} className="mt-5 grid gap-2 text-sm outline-none">
        <p role="alert" className="font-medium text-danger">
          {message}
        </p>
        <p className="text-muted">
          {hasGasMoney
            ? `You can pay the gas from this account in ${chain.nativeSymbol} instead.`
            : `To pay the gas yourself, this account needs ${chain.nativeSymbol} on ${chain.name}.`}
        </p>
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button disabled={!hasGasMoney} onClick={onPayGas}>
          Pay gas from this account
        </Button>
      </div>
    </div>
  )
}
