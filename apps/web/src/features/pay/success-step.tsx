import { CheckCircle2 } from 'lucide-react'
import { Button } from '../../ui/button'

/** Step 5 'Payment Successful': 'Payment completed' (docs/product.md#step-result). */
export function SuccessStep({
  summary,
  onClose,
  heading = 'Payment completed',
}: {
  summary: string
  onClose: () => void
  /** The result line (default 'Payment completed'; the Self Swap names its own). */
  heading?: string
}) {
  return (
    <div className="flex flex-col items-center gap-3 py-4 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-success-soft text-success">
        <CheckCircle2 aria-hidden="true" className="size-9" />
      </span>
      <p className="font-semibold text-lg">{heading}</p>
      <p className="text-muted text-sm">{summary}</p>
      <Button size="lg" className="mt-4 w-full" onClick={onClose}>
        Done
      </Button>
    </div>
  )
}
