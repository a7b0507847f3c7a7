import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Database } from '../../db/create-database-client.ts'
import { sessions, type User, users } from '../../db/schema.ts'
import { hashSessionToken } from './hash-session-token.ts'

/** Session tokens are 43 base64url characters; anything else cannot match and skips the query. */
const sessionTokenPattern = /^[A-Za-z0-9_-]{43}$/

/**
 * The user of a live session (not expired, not revoked), or null for an unknown, expired,
 * revoked or malformed token. Rejects only when the database fails.
 */
export async function getSessionUser(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<User | null> {
  if (!sessionTokenPattern.test(token)) return null
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.id, hashSessionToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    )
    .limit(1)
  return rows[0]?.user ?? null
}
