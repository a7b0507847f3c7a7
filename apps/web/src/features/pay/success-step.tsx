import { CheckCircle2 } from 'lucide-react'
import { Button } from '../../ui/button'
import type { PaymentTransaction } from './success-summary'
import { TxLink } from './tx-link'

export type SuccessStepProps = {
  summary: string
  onClose: () => void
  /** The result line (default 'Payment completed'; the Self Swap names its own). */
  heading?: string
  /** The payment's transactions, each linking to its explorer. */
  transactions?: readonly PaymentTransaction[]
  /** The payment's intent: links to its receipt (/pay/receipt/{id}) and status page (/pay/status/{id}). */
  intentId?: string
}

/**
 * Step 5 'Payment Successful': 'Payment completed', what the receiver got, the transactions and
 * the receipt and status links (docs/product.md#step-result).
 */
export function SuccessStep({
  summary,
  onClose,
  heading = 'Payment completed',
  transactions = [],
  intentId,
}: SuccessStepProps) {
  return (
    <div className="flex flex-col items-center gap-3 py-4 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-success-soft text-success">
        <CheckCircle2 aria-hidden="true" className="size-9" />
      </span>
      <p className="font-semibold text-lg">{heading}</p>
      <p className="text-muted text-sm">{summary}</p>
      {transactions.length === 0 ? null : (
        <dl className="mt-2 grid w-full gap-1 text-left text-sm">
          {transactions.map((transaction) => (
            <TxLink key={transaction.label} {...transaction} />
          ))}
        </dl>
      )}
      {intentId === undefined ? null : (
        <nav
          aria-label="This payment"
          className="flex w-full flex-wrap justify-center gap-x-6 gap-y-1 text-sm"
        >
          <a
            href={`/pay/receipt/${intentId}`}
            className="inline-flex min-h-11 items-center font-medium text-accent underline-offset-2 hover:underline"
          >
            Receipt
          </a>
          <a
            href={`/pay/status/${intentId}`}
            className="inline-flex min-h-11 items-center font-medium text-accent underline-offset-2 hover:underline"
          >
            Payment status
          </a>
        </nav>
      )}
      <Button size="lg" className="mt-4 w-full" onClick={onClose}>
        Done
      </Button>
    </div>
  )
}
