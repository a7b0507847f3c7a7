import type { Link, User } from '../../db/schema.ts'
import type { CacheChanges } from './cache-change-feed.ts'
import { createReadCache, type ReadCache } from './create-read-cache.ts'
import { createPublicLinkCache, type PublicLinkCache } from './public-link-cache.ts'

/** A live session's user and when the session ends (epoch ms); null for no live session. */
export type SessionUser = { user: User; expiresAt: number } | null

/**
 * The app's in-memory read caches (docs/decisions/0013). Every write that changes what one of
 * them holds invalidates it here before the write returns, and on every other instance through
 * the commit's NOTIFY; short TTLs are the safety net.
 */
export type ReadCaches = {
  /** GET /api/pay/links/{slug} and the pay page's preview, by slug ignoring case. */
  publicLinks: PublicLinkCache
  /** GET /api/links: each user's own links, newest first, by user id. */
  linkLists: ReadCache<Link[]>
  /** The session plugin's lookup, by session token hash: live sessions only (a miss is not kept). */
  sessionUsers: ReadCache<SessionUser>
}

/** Fresh, empty caches. */
export function createReadCaches(options: { now?: () => number } = {}): ReadCaches {
  const clock = options.now === undefined ? {} : { now: options.now }
  return {
    publicLinks: createPublicLinkCache(clock),
    linkLists: createReadCache<Link[]>({ maxEntries: 2000, ttlMs: () => 30_000, ...clock }),
    // Ten seconds at most behind a write that went unannounced (an instance that died mid-write).
    sessionUsers: createReadCache<SessionUser>({
      maxEntries: 10_000,
      ttlMs: (session) => (session === null ? 0 : 10_000),
      ...clock,
    }),
  }
}

/** Every cache forgets what `changes` names; unreadable changes (undefined) empty every cache. */
export function applyCacheChanges(caches: ReadCaches, changes: CacheChanges | undefined): void {
  if (changes === undefined) {
    for (const cache of Object.values(caches)) cache.clear()
    return
  }
  if (changes.publicLinks !== undefined) caches.publicLinks.invalidate(changes.publicLinks)
  if (changes.linkLists !== undefined) caches.linkLists.invalidate(changes.linkLists)
  if (changes.sessions !== undefined) caches.sessionUsers.invalidate(changes.sessions)
  // Sessions are keyed by token, not user: a user's change (rare) empties the session cache.
  if (changes.users !== undefined && changes.users.length > 0) caches.sessionUsers.clear()
}
