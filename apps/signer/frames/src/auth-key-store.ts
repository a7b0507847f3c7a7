import type { SessionSigningKey } from '@quicklinks/wallet/crypto/import-session-key'

/** The session key as the auth frame keeps it: a non-extractable CryptoKey, its org and expiry. */
export type StoredSession = SessionSigningKey & { organizationId: string; expiresAtMs: number }

/** Where the auth frame keeps its keys; IndexedDB in the browser, a Map in tests. */
export type AuthKeyStore = {
  getEmbeddedKeyPair(): Promise<CryptoKeyPair | undefined>
  /** Stores `keyPair` unless one is stored already; resolves with the one that is stored. */
  addEmbeddedKeyPair(keyPair: CryptoKeyPair): Promise<CryptoKeyPair>
  getSession(): Promise<StoredSession | undefined>
  putSession(session: StoredSession): Promise<void>
  deleteSession(): Promise<void>
  /** Deletes both keys. */
  clear(): Promise<void>
}

const databaseName = 'quicklinks-auth-frame'
const storeName = 'keys'
const embeddedKeyId = 'embedded-key'
const sessionId = 'session'

/**
 * The auth frame's key store in IndexedDB (database `quicklinks-auth-frame`, store `keys`).
 * CryptoKeys are structured-cloneable, so the non-extractable keys persist across reloads and
 * tabs on the frames origin without ever being readable. Nothing is cached in memory: another
 * tab may have reset the keys.
 *
 * Fails by rejecting with the IndexedDB error (storage disabled, quota).
 */
export function createIndexedDbKeyStore(indexedDb: IDBFactory = indexedDB): AuthKeyStore {
  let database: Promise<IDBDatabase> | undefined
  const open = (): Promise<IDBDatabase> => {
    database ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDb.open(databaseName, 1)
      request.onupgradeneeded = () => request.result.createObjectStore(storeName)
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    }).catch((error: unknown) => {
      database = undefined
      throw error
    })
    return database
  }

  /** Runs `body` in one transaction and resolves with what it set once the transaction commits. */
  const transact = async <T>(
    mode: IDBTransactionMode,
    body: (store: IDBObjectStore, set: (value: T) => void) => void,
  ) => {
    const db = await open()
    return new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(storeName, mode)
      let result: T
      body(transaction.objectStore(storeName), (value) => {
        result = value
      })
      transaction.oncomplete = () => resolve(result)
      transaction.onerror = () => reject(transaction.error)
      transaction.onabort = () => reject(transaction.error)
    })
  }

  const get = <T>(id: string) =>
    transact<T | undefined>('readonly', (store, set) => {
      const request = store.get(id)
      request.onsuccess = () => set(request.result as T | undefined)
    })

  return {
    getEmbeddedKeyPair: () => get<CryptoKeyPair>(embeddedKeyId),
    addEmbeddedKeyPair: (keyPair) =>
      // One transaction: two tabs creating a key at once end up sharing the first one stored.
      transact<CryptoKeyPair>('readwrite', (store, set) => {
        const request = store.get(embeddedKeyId)
        request.onsuccess = () => {
          const existing = request.result as CryptoKeyPair | undefined
          if (existing) return set(existing)
          store.put(keyPair, embeddedKeyId)
          set(keyPair)
        }
      }),
    getSession: () => get<StoredSession>(sessionId),
    putSession: (session) => transact<void>('readwrite', (store) => void store.put(session, sessionId)),
    deleteSession: () => transact<void>('readwrite', (store) => void store.delete(sessionId)),
    clear: () => transact<void>('readwrite', (store) => void store.clear()),
  }
}

/** An in-memory {@link AuthKeyStore}, for tests. */
export function createMemoryKeyStore(): AuthKeyStore {
  const entries = new Map<string, unknown>()
  return {
    getEmbeddedKeyPair: async () => entries.get(embeddedKeyId) as CryptoKeyPair | undefined,
    addEmbeddedKeyPair: async (keyPair) => {
      if (!entries.has(embeddedKeyId)) entries.set(embeddedKeyId, keyPair)
      return entries.get(embeddedKeyId) as CryptoKeyPair
    },
    getSession: async () => entries.get(sessionId) as StoredSession | undefined,
    putSession: async (session) => void entries.set(sessionId, session),
    deleteSession: async () => void entries.delete(sessionId),
    clear: async () => entries.clear(),
  }
}
