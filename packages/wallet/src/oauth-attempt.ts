import type { SessionStorageLike } from './persisted-session.ts'

/**
 * The redirect-mode attempt this tab started (docs/signer.md#oauth-attempt), kept in
 * `sessionStorage` (this tab only; it survives the trip to the provider and back) until its outcome
 * returns. An outcome without it, or with another one, is not this browser's and is ignored.
 */

/** The sessionStorage key of the pending attempt. */
export const oauthAttemptStorageKey = 'quicklinks.oauth-attempt'

/** As long as the signer's prepared request lives (its requestKey: 10 minutes). */
export const oauthAttemptLifetimeMs = 600_000

/** A redirect-mode social login waiting for its outcome. */
export type PendingOAuthAttempt = { attempt: string; fetchIdTokenOnly: boolean; expiresAtMs: number }

/** Keeps the attempt before the page leaves (replacing an older one). Never throws: a storage that throws keeps nothing. */
export function keepOAuthAttempt(storage: SessionStorageLike, pending: PendingOAuthAttempt): void {
  try {
    storage.setItem(oauthAttemptStorageKey, JSON.stringify(pending))
  } catch {
    // Private mode or a full quota: the outcome will be refused, and the user starts again.
  }
}

/**
 * Takes the pending attempt (it is removed whatever the answer: an outcome is acted on once) and
 * answers it when `attempt` is its secret and it has not expired at `nowMs`; undefined otherwise.
 * Never throws.
 */
export function takeOAuthAttempt(
  storage: SessionStorageLike,
  attempt: string | undefined,
  nowMs: number,
): PendingOAuthAttempt | undefined {
  let pending: unknown
  try {
    const stored = storage.getItem(oauthAttemptStorageKey)
    storage.removeItem(oauthAttemptStorageKey)
    pending = stored === null ? undefined : JSON.parse(stored)
  } catch {
    return undefined
  }
  if (typeof pending !== 'object' || pending === null) return undefined
  const { attempt: kept, fetchIdTokenOnly, expiresAtMs } = pending as Record<string, unknown>
  if (typeof kept !== 'string' || kept.length === 0 || kept !== attempt) return undefined
  if (typeof expiresAtMs !== 'number' || expiresAtMs <= nowMs) return undefined
  return { attempt: kept, fetchIdTokenOnly: fetchIdTokenOnly === true, expiresAtMs }
}
