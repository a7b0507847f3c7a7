/**
 * A wait in words for a refusal message: "1 minute", "42 minutes", "1 hour", "5 hours" (rounded
 * up, at least a minute). Pure.
 */
export function describeWait(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  if (minutes <= 90) return minutes === 1 ? '1 minute' : `${minutes} minutes`
  const hours = Math.ceil(minutes / 60)
  return `${hours} hours`
}
