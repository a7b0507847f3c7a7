import { and, eq, isNull } from 'drizzle-orm'
import type { Database } from '../../db/create-database-client.ts'
import { sessions } from '../../db/schema.ts'
import { hashSessionToken } from './hash-session-token.ts'

/**
 * Ends a session by its cookie token; the row stays (revoked_at set) for auditing. Unknown or
 * already revoked tokens are a no-op, so logout is idempotent. Rejects only when the database fails.
 */
export async function revokeSession(db: Database, token: string, now: Date = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, hashSessionToken(token)), isNull(sessions.revokedAt)))
}
