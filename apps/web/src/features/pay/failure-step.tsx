import { XCircle } from 'lucide-react'
import { Button } from '../../ui/button'

/** Step 6 'Payment Failed' (docs/product.md#step-result): the status text and a contact-support prompt. */
export function FailureStep({
  detail,
  onClose,
  statusText = 'Your payment failed. You can close this window.',
}: {
  detail: string | null
  onClose: () => void
  /** The status line (default the pay modal's; the Self Swap names its own). */
  statusText?: string
}) {
  return (
    <div className="flex flex-col items-center gap-3 py-4 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-danger-soft text-danger">
        <XCircle aria-hidden="true" className="size-9" />
      </span>
      <p role="status" className="font-medium">
        {statusText}
      </p>
      {detail === null ? null : <p className="break-words text-muted text-sm">{detail}</p>}
      <p className="text-muted text-sm">
        Funds not where you expected? Contact support with the transaction hash and we will help.
      </p>
      <Button variant="secondary" size="lg" className="mt-4 w-full" onClick={onClose}>
        Done
      </Button>
    </div>
  )
}
