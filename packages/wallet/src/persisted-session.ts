import type { SignerUser } from './signer-types.ts'

/** localStorage key of the signer session; bump the version to drop every stored session. */
export const signerStorageKey = 'quicklinks:signer'
export const signerStorageVersion = 1

/** Only these fields persist (docs/signer.md#persisted-session). */
export type PersistedUser = Pick<SignerUser, 'address' | 'solanaAddress' | 'orgId' | 'userId' | 'email'>

export type PersistedSession = { user: PersistedUser; expiresAtMs: number }

/** The parts of `Storage` the store uses, so tests can pass a Map-backed one. */
export type SessionStorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/**
 * Reads the stored session. A different version, malformed JSON, missing fields or an expired
 * session are removed and read as none (docs/signer.md#persisted-session).
 * Never throws: storage that throws (private mode, quota) reads as none.
 */
export function readPersistedSession(
  storage: SessionStorageLike,
  key: string,
  nowMs: number,
): PersistedSession | null {
  let raw: string | null
  try {
    raw = storage.getItem(key)
  } catch {
    return null
  }
  if (raw === null) return null
  const session = parsePersistedSession(raw)
  if (session === null || session.expiresAtMs <= nowMs) {
    clearPersistedSession(storage, key)
    return null
  }
  return session
}

/** Stores the session with the current version. Never throws (a full or blocked storage is ignored). */
export function writePersistedSession(
  storage: SessionStorageLike,
  key: string,
  session: PersistedSession,
): void {
  const user: PersistedUser = {
    address: session.user.address,
    solanaAddress: session.user.solanaAddress,
    orgId: session.user.orgId,
    userId: session.user.userId,
    email: session.user.email,
  }
  try {
    storage.setItem(
      key,
      JSON.stringify({ version: signerStorageVersion, state: { user, expiresAtMs: session.expiresAtMs } }),
    )
  } catch {
    // The session then lasts as long as this page; nothing else to do.
  }
}

/** Removes the stored session. Never throws. */
export function clearPersistedSession(storage: SessionStorageLike, key: string): void {
  try {
    storage.removeItem(key)
  } catch {
    // Nothing stored that we could remove.
  }
}

function parsePersistedSession(raw: string): PersistedSession | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { version, state } = value as { version?: unknown; state?: unknown }
  if (version !== signerStorageVersion || typeof state !== 'object' || state === null) return null
  const { user, expiresAtMs } = state as { user?: unknown; expiresAtMs?: unknown }
  if (typeof expiresAtMs !== 'number' || typeof user !== 'object' || user === null) return null
  const { address, solanaAddress, orgId, userId, email } = user as Record<string, unknown>
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) return null
  if (typeof orgId !== 'string' || typeof userId !== 'string') return null
  return {
    user: {
      address: address as `0x${string}`,
      solanaAddress: typeof solanaAddress === 'string' ? solanaAddress : null,
      orgId,
      userId,
      email: typeof email === 'string' ? email : null,
    },
    expiresAtMs,
  }
}
