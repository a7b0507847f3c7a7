import { lazy, Suspense, useState } from 'react'
import { Spinner } from '../../ui/spinner'
import type { PayModalProps } from './pay-modal'

/** The modal's chunk (wagmi, connectors, viem actions), fetched on the first open only. */
const PayModal = lazy(() => import('./pay-modal'))

/** Starts fetching the modal's chunk early (a pointer over the Pay button), without opening it. */
export function preloadPayModal(): void {
  void import('./pay-modal')
}

/**
 * The pay modal behind React.lazy: nothing of the wallet stack loads before the payer first asks
 * to pay, and after that the chunk stays mounted-on-demand.
 */
export function LazyPayModal(props: PayModalProps) {
  const [hasOpened, setHasOpened] = useState(props.open)
  if (props.open && !hasOpened) setHasOpened(true)
  if (!hasOpened) return null
  return (
    <Suspense
      fallback={
        <div
          role="status"
          aria-label="Opening payment"
          className="fixed inset-0 z-50 flex items-center justify-center bg-overlay"
        >
          <Spinner className="size-8 text-white" />
        </div>
      }
    >
      <PayModal {...props} />
    </Suspense>
  )
}
