/**
 * Wraps a loader so that concurrent callers share one in-flight call, and a settled value is
 * reused for `ttlMs` (0: only the in-flight call is shared). A rejection is never cached: the next
 * caller after it starts a fresh call.
 */
export function shareInFlight<T>(load: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
  let pending: Promise<T> | undefined
  let cached: { value: T; at: number } | undefined
  return (): Promise<T> => {
    if (cached && now() - cached.at < ttlMs) return Promise.resolve(cached.value)
    if (pending) return pending
    const call = load().then(
      (value) => {
        if (ttlMs > 0) cached = { value, at: now() }
        pending = undefined
        return value
      },
      (error: unknown) => {
        pending = undefined
        throw error
      },
    )
    pending = call
    return call
  }
}
