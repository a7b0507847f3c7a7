import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, isNull } from 'drizzle-orm'
import { sessions } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'
import { hashSessionToken } from './hash-session-token.ts'

/**
 * Ends a session by its cookie token; the row stays (revoked_at set) for auditing. The session
 * leaves the session cache of this instance (`caches`) before this returns, and of every other
 * instance through the commit's NOTIFY. Unknown or already revoked tokens are a no-op, so logout
 * is idempotent. Rejects only when the database fails.
 */
export async function revokeSession(
  db: Database,
  token: string,
  caches?: ReadCaches,
  now: Date = new Date(),
): Promise<void> {
  const id = hashSessionToken(token)
  await writeAndInvalidate(
    db,
    caches,
    (tx) =>
      tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt))),
    () => ({ sessions: [id] }),
  )
}
