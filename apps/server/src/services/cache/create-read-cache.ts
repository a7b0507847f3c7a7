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
  /**
   * The value for `key` when memory holds a fresh one (wrapped, since a value may be undefined),
   * else undefined: a hot path answers a hit without a promise and calls `get` on a miss.
   */
  peek(key: string): { value: Value } | undefined
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

type Entry<Value> = { held: { value: Value }; expiresAt: number; movedAt: number }

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
  // Counts every move to the back of `entries`. A hit moves its entry back only once half the
  // cache's worth of moves happened since its last one: a key read again and again (the hot link)
  // is not deleted and re-inserted on every read (a Map shrinks and grows again), and a key read
  // within the last maxEntries / 2 moves is still far from the front, where eviction takes keys.
  let moves = 0
  const moveToBack = (key: string, entry: Entry<Value>) => {
    entries.delete(key)
    moves += 1
    entry.movedAt = moves
    entries.set(key, entry)
  }
  const freshEntry = (key: string): Entry<Value> | undefined => {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    if (moves - entry.movedAt >= options.maxEntries / 2) moveToBack(key, entry)
    return entry
  }

  const store = (key: string, value: Value) => {
    const ttl = options.ttlMs(value)
    if (ttl <= 0 || (options.canStore !== undefined && !options.canStore(key, value))) return
    moveToBack(key, { held: { value }, expiresAt: now() + ttl, movedAt: 0 })
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
      const entry = freshEntry(key)
      if (entry !== undefined) return Promise.resolve(entry.held.value)
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
    peek(key) {
      return isEnabled ? freshEntry(key)?.held : undefined
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
