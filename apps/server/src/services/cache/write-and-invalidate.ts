import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { type CacheChanges, notifyCacheChanges } from './cache-change-feed.ts'
import { applyCacheChanges, type ReadCaches } from './read-caches.ts'

/**
 * Runs `write` in a transaction that also announces `changes(result)` (NOTIFY, delivered to every
 * instance at commit), then makes this instance's caches (when given) forget them before
 * resolving: once it resolves, no read here serves what the write replaced. Rejects, changing nothing, when the
 * write or the database fails.
 */
export async function writeAndInvalidate<Result>(
  db: Database,
  caches: ReadCaches | undefined,
  write: (tx: Database) => Promise<Result>,
  changes: (result: Result) => CacheChanges,
): Promise<Result> {
  let announced: CacheChanges = {}
  const result = await db.transaction(async (tx) => {
    const written = await write(tx)
    announced = changes(written)
    await notifyCacheChanges(tx, announced)
    return written
  })
  if (caches !== undefined) applyCacheChanges(caches, announced)
  return result
}
