import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, gt, isNull } from 'drizzle-orm'
import { sessions, type User, users } from '../../db/schema.ts'
import type { ReadCache } from '../cache/create-read-cache.ts'
import type { SessionUser } from '../cache/read-caches.ts'
import { hashSessionToken } from './hash-session-token.ts'

/** Session tokens are 43 base64url characters; anything else cannot match and skips the query. */
const sessionTokenPattern = /^[A-Za-z0-9_-]{43}$/

/**
 * The user of a live session (not expired, not revoked), or null for an unknown, expired,
 * revoked or malformed token. With `cache`, a live session is read from memory (a revocation or a
 * change of its user invalidates it; its expiry is checked on every read). Rejects only when the
 * database fails.
 */
export async function getSessionUser(
  db: Database,
  token: string,
  now: Date = new Date(),
  cache?: ReadCache<SessionUser>,
): Promise<User | null> {
  if (!sessionTokenPattern.test(token)) return null
  const id = hashSessionToken(token)
  const load = async (): Promise<SessionUser> => {
    const [row] = await db
      .select({ user: users, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .limit(1)
    return row === undefined ? null : { user: row.user, expiresAt: row.expiresAt.getTime() }
  }
  const session = cache === undefined ? await load() : await cache.get(id, load)
  return session !== null && session.expiresAt > now.getTime() ? session.user : null
}
