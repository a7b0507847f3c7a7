export type ReadCacheOptions<Value> = {
  /** Most keys held at once; the least recently read go first. */
  maxEntries: number
  /** How long a value is served without loading it again (ms); 0 keeps nothing. */
  ttlMs: (value: Value) => number
  /** Whether a loaded value may be kept under this key (default: always). */
  canStore?: (key: string, value: Value) => boolean
  /** The clock (epoch ms), default `Date.now`. */
  now?: () => number
}

/** An in-memory read-through cache that writers invalidate (see `createReadCache`). */
export type ReadCache<Value> = {
  /**
   * The value for `key` from memory when fresh, else from `load` (one load per key at a time,
   * shared by concurrent readers). A load that overlapped an invalidation answers its callers but
   * is not kept. Rejects when `load` rejects (nothing is kept).
   */
  get(key: string, load: () => Promise<Value>): Promise<Value>
  /** Forgets these keys and any load of them still in flight. Call after a write commits. */
  invalidate(keys: readonly string[]): void
  /** Forgets everything. */
  clear(): void
  /**
   * Turns caching off (every read goes to `load`, nothing is kept) or back on; either way the
   * cache is emptied. Off while the cross-instance change feed is down.
   */
  setEnabled(isEnabled: boolean): void
}

type Entry<Value> = { value: Value; expiresAt: number }

/**
 * An LRU of loaded values with a TTL per value. An epoch counter, bumped by every invalidation,
 * keeps a load that raced a write from storing what it read before the write: once `invalidate`
 * returns, no reader gets the old value from this cache.
 */
export function createReadCache<Value>(options: ReadCacheOptions<Value>): ReadCache<Value> {
  const now = options.now ?? Date.now
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recent.
  const entries = new Map<string, Entry<Value>>()
  const loads = new Map<string, Promise<Value>>()
  let epoch = 0
  let isEnabled = true

  const store = (key: string, value: Value) => {
    const ttl = options.ttlMs(value)
    if (ttl <= 0 || (options.canStore !== undefined && !options.canStore(key, value))) return
    entries.delete(key)
    entries.set(key, { value, expiresAt: now() + ttl })
    if (entries.size > options.maxEntries) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
  }

  const clear = () => {
    epoch += 1
    entries.clear()
    loads.clear()
  }

  return {
    get(key, load) {
      if (!isEnabled) return load()
      const entry = entries.get(key)
      if (entry !== undefined) {
        entries.delete(key)
        if (entry.expiresAt > now()) {
          entries.set(key, entry)
          return Promise.resolve(entry.value)
        }
      }
      const pending = loads.get(key)
      if (pending !== undefined) return pending
      const startEpoch = epoch
      const loading = load().then(
        (value) => {
          if (loads.get(key) === loading) loads.delete(key)
          if (isEnabled && epoch === startEpoch) store(key, value)
          return value
        },
        (error: unknown) => {
          if (loads.get(key) === loading) loads.delete(key)
          throw error
        },
      )
      loads.set(key, loading)
      return loading
    },
    invalidate(keys) {
      epoch += 1
      for (const key of keys) {
        entries.delete(key)
        loads.delete(key)
      }
    },
    clear,
    setEnabled(enabled) {
      isEnabled = enabled
      clear()
    },
  }
}
