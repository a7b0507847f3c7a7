import { QrCode } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Button } from '../../ui/button'
import { Spinner } from '../../ui/spinner'

// The panel (with its QR encoder) loads only when asked for: the pay page stays light, and nothing
// here touches the wallet stack (docs/product.md#send-from-any-wallet-or-exchange).
const DepositPanel = lazy(() =>
  import('./deposit-panel').then((module) => ({ default: module.DepositPanel })),
)

/**
 * "Send from any wallet or exchange" under the Pay button of the pay page and the invoice page:
 * opens the deposit panel for the link (and the invoice, when there is one).
 */
export function SendFromAnywhere({ slug, invoiceId }: { slug: string; invoiceId?: string | undefined }) {
  const [isOpen, setOpen] = useState(false)
  if (!isOpen) {
    return (
      <Button variant="secondary" size="lg" className="mt-3 w-full" onClick={() => setOpen(true)}>
        <QrCode aria-hidden="true" />
        Send from any wallet or exchange
      </Button>
    )
  }
  return (
    <Suspense
      fallback={
        <div className="mt-6 flex justify-center" role="status" aria-label="Loading">
          <Spinner />
        </div>
      }
    >
      <DepositPanel slug={slug} invoiceId={invoiceId} />
    </Suspense>
  )
}
