import { CloudOff } from 'lucide-react'
import { useIsOnline } from '../lib/use-is-online'

/**
 * Says, while the browser is offline, that what this screen does needs a connection (payments and
 * sign-in are never queued for later, docs/product.md#offline-queue). Renders nothing online.
 */
export function OfflineNotice({ children }: { children: string }) {
  const isOnline = useIsOnline()
  if (isOnline) return null
  return (
    <p
      role="alert"
      className="mb-4 flex items-start gap-2 rounded-control border border-danger p-3 text-danger text-sm"
    >
      <CloudOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {children}
    </p>
  )
}

/** The pay modal's and Self Swap's offline text. */
export const offlinePaymentMessage =
  'You are offline. Payments need a connection and are never saved for later: reconnect to continue.'

/** The sign-in's offline text. */
export const offlineSignInMessage = 'You are offline. Signing in needs a connection: reconnect and try again.'
