import { lazy, Suspense } from 'react'
import { Spinner } from '../../ui/spinner'
import type { SelfSwapDialogProps } from './self-swap-dialog'

/** The dialog's chunk (wagmi, viem's actions, the connector), fetched on the first open only. */
const SelfSwapDialog = lazy(() => import('./self-swap-dialog'))

/** The Self Swap dialog behind React.lazy, mounted while open. */
export function LazySelfSwapDialog(props: SelfSwapDialogProps & { open: boolean }) {
  if (!props.open) return null
  return (
    <Suspense
      fallback={
        <div
          role="status"
          aria-label="Opening Self Swap"
          className="fixed inset-0 z-50 flex items-center justify-center bg-overlay"
        >
          <Spinner className="size-8 text-white" />
        </div>
      }
    >
      <SelfSwapDialog onClose={props.onClose} />
    </Suspense>
  )
}
