import type { Database } from '../../db/create-database-client.ts'
import { type CacheChanges, notifyCacheChanges } from './cache-change-feed.ts'
import { applyCacheChanges, type ReadCaches } from './read-caches.ts'

/**
 * For a write that already committed outside `writeAndInvalidate`: this instance's caches forget
 * `changes` at once, and a NOTIFY tells every other instance. Should this process die between
 * the write and the NOTIFY, the other instances catch up at the caches' TTL. Rejects when the
 * database fails (the local caches have forgotten already).
 */
export async function announceCacheChanges(
  db: Database,
  caches: ReadCaches,
  changes: CacheChanges,
): Promise<void> {
  applyCacheChanges(caches, changes)
  await notifyCacheChanges(db, changes)
}
