/**
 * The clock authenticator codes are checked at. In production it is the service clock, and nothing
 * can move it. In dev mode a test may push one account's clock forward (POST
 * /signer/v1/dev/totp-clock, dev-totp-clock-route.ts) so that a fresh 30 s step begins at once
 * instead of after a wait: a code works once per step, and an end-to-end test spends several. Per
 * account, so tests running side by side never move each other's codes out of the window.
 */
export type TotpClock = {
  /** Epoch ms the TOTP check of `userId`'s codes reads. */
  now: (userId: string) => number
  /** Moves `userId`'s clock `ms` forward (dev mode only); answers its offset from the service clock. */
  advance?: (userId: string, ms: number) => number
}

/**
 * The TOTP clock for a host: the service clock itself unless `isMovable` (dev mode, never
 * production), then the service clock plus a per-account offset that only grows, so a spent step
 * never comes back.
 */
export function createTotpClock(serviceNow: () => number, isMovable: boolean): TotpClock {
  if (!isMovable) return { now: () => serviceNow() }
  const offsets = new Map<string, number>()
  return {
    now: (userId) => serviceNow() + (offsets.get(userId) ?? 0),
    advance: (userId, ms) => {
      const offsetMs = (offsets.get(userId) ?? 0) + ms
      offsets.set(userId, offsetMs)
      return offsetMs
    },
  }
}
