import { useSyncExternalStore } from 'react'
import { isBrowserOffline } from './offline-queue'

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

/**
 * False while the browser says it has no network (its 'offline' event), so a screen whose calls are
 * never queued (payments, sign-in) can say so before the payer or user tries.
 */
export function useIsOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => !isBrowserOffline(),
    () => true,
  )
}
