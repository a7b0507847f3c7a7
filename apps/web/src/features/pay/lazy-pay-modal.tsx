import { lazyOnIntent, MountOnFirstOpen } from '../../ui/lazy-on-open'
import type { PayModalProps } from './pay-modal'

// The modal's chunk: wagmi, the connectors, viem's wallet actions and the pay flow. The pay page's
// first paint has none of it (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
const payModal = lazyOnIntent<PayModalProps>(() => import('./pay-modal'))
const PayModal = payModal.Component

/**
 * The pay modal behind React.lazy: nothing of the wallet stack loads before the payer first asks
 * to pay, and after that the chunk stays mounted-on-demand.
 */
export function LazyPayModal(props: PayModalProps) {
  return (
    <MountOnFirstOpen open={props.open} loadingLabel="Opening payment">
      <PayModal {...props} />
    </MountOnFirstOpen>
  )
}

/** Starts fetching the modal's chunk early (a pointer over the Pay button), without opening it. */
export const preloadPayModal = payModal.preload

/** For the Pay button: pointer over it, a finger on it, or focus fetches the modal's chunk. */
export const payModalIntentHandlers = payModal.intentHandlers
