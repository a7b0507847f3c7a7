import confetti from 'canvas-confetti'

/** Bursts of 100 particles at 0 ms, 100 at 250 ms and 150 at 500 ms (docs/product.md#link-manager). */
export const confettiBursts = [
  { delayMs: 0, particleCount: 100 },
  { delayMs: 250, particleCount: 100 },
  { delayMs: 500, particleCount: 150 },
] as const

/**
 * Celebrates a saved link. Nothing moves for a user who prefers reduced motion. Returns a function
 * that cancels the bursts not yet fired.
 */
export function fireConfetti(): () => void {
  if (typeof window === 'undefined') return () => {}
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return () => {}
  const timers = confettiBursts.map(({ delayMs, particleCount }) =>
    setTimeout(() => {
      // The library's defaults (200 ticks, spread 45, angle 90, from the middle) but for the count;
      // zIndex only lifts it above the dialog.
      void confetti({ particleCount, disableForReducedMotion: true, zIndex: 60 })
    }, delayMs),
  )
  return () => {
    for (const timer of timers) clearTimeout(timer)
  }
}
