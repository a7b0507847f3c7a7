import {
  clearPersistedSession,
  type PersistedSession,
  readPersistedSession,
  type SessionStorageLike,
  writePersistedSession,
} from './persisted-session.ts'
import type { SignerState } from './signer-state.ts'
import type { SignerUser } from './signer-types.ts'

/** The longest delay setTimeout honours (about 24.8 days). */
const maxTimerMs = 2_147_483_647

/** The state of a signed-out store (also its start before the persisted session is read). */
export const disconnectedFields = {
  user: null,
  status: 'DISCONNECTED',
  otpId: null,
  isNewUser: undefined,
  mfaStatus: { mfaRequired: false, mfaFactorId: null },
  authLinkingStatus: null,
  sessionExpiresAtMs: null,
} as const satisfies Partial<SignerState>

/** What the session keeper needs of the store (signer-store.ts passes its own). */
export type SessionKeeperHost = {
  /** Where the session is persisted; undefined keeps it in memory only. */
  storage: SessionStorageLike | undefined
  storageKey: string
  /** Where `storage` events arrive from other tabs; undefined: none. */
  eventTarget: Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined
  now: () => number
  get(): Pick<SignerState, 'user' | 'sessionExpiresAtMs'>
  set(partial: Partial<SignerState>): void
}

/**
 * The wallet session's lifetime in the store (docs/signer.md#signer-status): the persisted session
 * it starts from, CONNECTED until the session's expiry (then DISCONNECTED and forgotten), and the
 * sign-ins and logouts of other tabs, which share the persisted session (`storage` events).
 */
export function createSessionKeeper(host: SessionKeeperHost) {
  const { storage, storageKey, eventTarget, now } = host
  let expiryTimer: ReturnType<typeof setTimeout> | undefined

  /** CONNECTED as `user` until `expiresAtMs`. */
  function connect(user: SignerUser, expiresAtMs: number): void {
    host.set({ user, status: 'CONNECTED', error: null, otpId: null, sessionExpiresAtMs: expiresAtMs })
    scheduleExpiry(expiresAtMs)
  }

  /** DISCONNECTED; with `persist` the persisted session is cleared too. */
  function disconnect({ persist }: { persist: boolean }): void {
    clearTimeout(expiryTimer)
    expiryTimer = undefined
    if (persist && storage) clearPersistedSession(storage, storageKey)
    host.set({ ...disconnectedFields })
  }

  function scheduleExpiry(expiresAtMs: number): void {
    clearTimeout(expiryTimer)
    const delay = Math.min(Math.max(expiresAtMs - now(), 0), maxTimerMs)
    expiryTimer = setTimeout(() => {
      if (now() >= expiresAtMs) disconnect({ persist: true })
      else scheduleExpiry(expiresAtMs)
    }, delay)
  }

  /** Persists a new session (a sign-in), when the store has storage. */
  function persist(user: SignerUser, expiresAtMs: number): void {
    if (storage) writePersistedSession(storage, storageKey, { user, expiresAtMs })
  }

  /** Keeps a changed user of the live session in the state and the persisted session. */
  function updateUser(user: SignerUser): void {
    const { sessionExpiresAtMs } = host.get()
    if (storage && sessionExpiresAtMs !== null) {
      writePersistedSession(storage, storageKey, { user, expiresAtMs: sessionExpiresAtMs })
    }
    host.set({ user })
  }

  function applyStoredSession(session: PersistedSession | null): void {
    if (session !== null) {
      connect({ ...session.user, phone: null }, session.expiresAtMs)
    } else if (host.get().user !== null) {
      disconnect({ persist: false })
    }
  }

  const onStorage = (event: Event) => {
    const key = (event as StorageEvent).key
    if (key !== storageKey && key !== null) return
    if (!storage) return
    // Another tab signed in (its frame shares this one's IndexedDB) or out.
    applyStoredSession(readPersistedSession(storage, storageKey, now()))
  }

  /**
   * Follows other tabs and starts from `initial` (the persisted session read when the store was
   * made): CONNECTED with its user, else DISCONNECTED.
   */
  function start(initial: PersistedSession | null): void {
    eventTarget?.addEventListener('storage', onStorage)
    if (initial !== null) connect({ ...initial.user, phone: null }, initial.expiresAtMs)
    else host.set({ status: 'DISCONNECTED' })
  }

  /** Stops the expiry timer and the cross-tab listener. */
  function destroy(): void {
    clearTimeout(expiryTimer)
    eventTarget?.removeEventListener('storage', onStorage)
  }

  return { connect, disconnect, persist, updateUser, start, destroy }
}
