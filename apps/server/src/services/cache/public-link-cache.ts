import type { Link } from '../../db/schema.ts'
import { createReadCache, type ReadCache } from './create-read-cache.ts'

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

/**
 * The public link reads' cache, by slug ignoring case (the enabled link, or undefined): reads go
 * through it, every link write invalidates the slugs it touched (see `ReadCache`).
 */
export type PublicLinkCache = ReadCache<Link | undefined>

/** The key of a slug: SQL compares `lower(alias_slug)`, so the cache does too. */
export function toPublicLinkCacheKey(slug: string): string {
  return slug.toLowerCase()
}

/**
 * An in-memory LRU of public link reads with a short TTL for hits and a shorter one for misses;
 * keys and invalidations go through `toPublicLinkCacheKey`.
 */
export function createPublicLinkCache(options: PublicLinkCacheOptions = {}): PublicLinkCache {
  const ttlMs = options.ttlMs ?? 30_000
  const missTtlMs = options.missTtlMs ?? 5000
  const cache = createReadCache<Link | undefined>({
    maxEntries: options.maxEntries ?? 5000,
    ttlMs: (link) => (link === undefined ? missTtlMs : ttlMs),
    // A link read under another spelling of its slug (a Unicode case quirk) is not kept: writes
    // invalidate by the stored slug's key, so such an entry could outlive a write.
    canStore: (key, link) => link === undefined || toPublicLinkCacheKey(link.aliasSlug) === key,
    ...(options.now === undefined ? {} : { now: options.now }),
  })
  return {
    ...cache,
    get: (slug, load) => cache.get(toPublicLinkCacheKey(slug), load),
    peek: (slug) => cache.peek(toPublicLinkCacheKey(slug)),
    invalidate: (slugs) => cache.invalidate(slugs.map(toPublicLinkCacheKey)),
  }
}
