import type { Link } from '../../db/schema.ts'

export type PublicLinkCacheOptions = {
  /** Most slugs held at once (hits and misses together); the least recently read go first. Default 5,000. */
  maxEntries?: number
  /** How long a found link is served without asking the database. Default 30 s (a safety net: writes invalidate). */
  ttlMs?: number
  /** How long an unknown or disabled slug is remembered. Default 5 s, so unknown-slug floods stay off SQL. */
  missTtlMs?: number
  /** The clock (epoch ms), default `Date.now`. */
  now?: () => number
}

/** What the public-link read and every link write share: reads through it, writes invalidate it. */
export type PublicLinkCache = {
  /**
   * The enabled link for `slug` (ignoring case), or undefined: from memory when fresh, else from
   * `load` (one load per slug at a time, shared by concurrent readers). A load that overlapped an
   * invalidation answers its caller but is not kept. Rejects when `load` rejects (nothing is kept).
   */
  get(slug: string, load: () => Promise<Link | undefined>): Promise<Link | undefined>
  /** Forgets these slugs (any case) and any load of them still in flight. Call after a write commits. */
  invalidate(slugs: readonly string[]): void
  /** Forgets everything (a missed invalidation: the change feed reconnected). */
  clear(): void
  /**
   * Turns caching off (every read goes to `load`, nothing is kept) or back on; either way the
   * cache is emptied. Off while the cross-instance change feed is down.
   */
  setEnabled(isEnabled: boolean): void
}

type Entry = { link: Link | undefined; expiresAt: number }

/** The key of a slug: SQL compares `lower(alias_slug)`, so the cache does too. */
export function toPublicLinkCacheKey(slug: string): string {
  return slug.toLowerCase()
}

/**
 * An in-memory LRU of public link reads with a short TTL for hits and a shorter one for misses.
 * An epoch counter, bumped by every invalidation, keeps a read that raced a write from storing
 * what it saw before the write: after `invalidate` returns, no reader gets the old answer from
 * this cache.
 */
export function createPublicLinkCache(options: PublicLinkCacheOptions = {}): PublicLinkCache {
  const maxEntries = options.maxEntries ?? 5000
  const ttlMs = options.ttlMs ?? 30_000
  const missTtlMs = options.missTtlMs ?? 5000
  const now = options.now ?? Date.now
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recent.
  const entries = new Map<string, Entry>()
  const loads = new Map<string, Promise<Link | undefined>>()
  let epoch = 0
  let isEnabled = true

  const store = (key: string, link: Link | undefined) => {
    // A link read under another spelling of its slug (a Unicode case quirk) is not kept: writes
    // invalidate by the stored slug's key, so such an entry could outlive a write.
    if (link !== undefined && toPublicLinkCacheKey(link.aliasSlug) !== key) return
    entries.delete(key)
    entries.set(key, { link, expiresAt: now() + (link === undefined ? missTtlMs : ttlMs) })
    if (entries.size > maxEntries) {
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
    get(slug, load) {
      if (!isEnabled) return load()
      const key = toPublicLinkCacheKey(slug)
      const entry = entries.get(key)
      if (entry !== undefined) {
        if (entry.expiresAt > now()) {
          entries.delete(key)
          entries.set(key, entry)
          return Promise.resolve(entry.link)
        }
        entries.delete(key)
      }
      const pending = loads.get(key)
      if (pending !== undefined) return pending
      const startEpoch = epoch
      const loading = load().then(
        (link) => {
          if (loads.get(key) === loading) loads.delete(key)
          if (isEnabled && epoch === startEpoch) store(key, link)
          return link
        },
        (error: unknown) => {
          if (loads.get(key) === loading) loads.delete(key)
          throw error
        },
      )
      loads.set(key, loading)
      return loading
    },
    invalidate(slugs) {
      epoch += 1
      for (const slug of slugs) {
        const key = toPublicLinkCacheKey(slug)
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
