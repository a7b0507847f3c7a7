import { X } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'

/**
 * The beta banner (docs/product.md#beta-banner): appears 2200 ms after load at the top of the page; its
 * dismiss button stores the ISO time under `beta-flag-closed-at`, which hides it for 24 hours.
 */

export const betaBannerStorageKey = 'beta-flag-closed-at'
export const betaBannerDelayMs = 2200
export const betaBannerSuppressMs = 24 * 60 * 60 * 1000

/** True while a dismissal stored at `closedAt` (ISO) still hides the banner at `now`. */
export function isBetaBannerSuppressed(closedAt: string | null, now: number): boolean {
  if (closedAt === null) return false
  const closedAtMs = Date.parse(closedAt)
  if (Number.isNaN(closedAtMs)) return false
  const elapsed = now - closedAtMs
  // A dismissal "in the future" (a clock moved back) still counts, within the same 24 hours.
  return elapsed < betaBannerSuppressMs && elapsed > -betaBannerSuppressMs
}

function readClosedAt(): string | null {
  try {
    return localStorage.getItem(betaBannerStorageKey)
  } catch {
    return null
  }
}

/** Whether the banner shows, and the dismiss action. */
export function useBetaBanner(): { isVisible: boolean; dismiss: () => void } {
  const [isVisible, setIsVisible] = useState(false)
  useEffect(() => {
    if (isBetaBannerSuppressed(readClosedAt(), Date.now())) return
    const timeout = setTimeout(() => setIsVisible(true), betaBannerDelayMs)
    return () => clearTimeout(timeout)
  }, [])
  const dismiss = useCallback(() => {
    try {
      localStorage.setItem(betaBannerStorageKey, new Date().toISOString())
    } catch {
      // Storage unavailable: the banner still closes for this page view.
    }
    setIsVisible(false)
  }, [])
  return { isVisible, dismiss }
}

export function BetaBanner() {
  const { isVisible, dismiss } = useBetaBanner()
  if (!isVisible) return null
  return (
    <section
      aria-label="Beta notice"
      className="relative z-40 animate-slide-down border-border border-b bg-accent-soft text-fg"
    >
      <div className="mx-auto flex max-w-5xl items-center gap-2 py-1 pr-1 pl-4 text-sm sm:pl-6">
        <p className="flex-1 py-2">
          <strong className="font-semibold">Beta:</strong>{' '}
          <span>Quick Links is in active development. Things may change—your feedback helps us improve.</span>
        </p>
        <button
          type="button"
          aria-label="Dismiss beta banner"
          onClick={dismiss}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-muted hover:bg-surface hover:text-fg"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
    </section>
  )
}
