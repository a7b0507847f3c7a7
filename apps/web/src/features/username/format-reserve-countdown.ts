/** The reservation countdown starts at 72 h 56 min 27 s (docs/product.md#username). */
export const reserveCountdownStartSeconds = 72 * 3600 + 56 * 60 + 27

/** Seconds as HH:MM:SS with hours past 24 kept whole: 262587 → '72:56:27'. Never negative. */
export function formatReserveCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds))
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  return [hours, minutes, rest].map((part) => String(part).padStart(2, '0')).join(':')
}
