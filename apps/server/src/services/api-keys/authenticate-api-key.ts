import { type ApiKeyScope, apiKeyPattern } from '@quicklinks/core/api/api-keys'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import { apiKeys, type User, users } from '../../db/schema.ts'
import { hashSessionToken } from '../sessions/hash-session-token.ts'

/** The key a request authenticated with: its id (for limits and logs) and what it may do. */
export type RequestApiKey = { id: string; scopes: readonly ApiKeyScope[] }

/** `last_used_at` is written at most this often per key, so a busy key costs no write per request. */
const lastUsedResolutionMs = 60_000

/**
 * The owner and key of a live API key, or null for a malformed, unknown or revoked one. Read from
 * the database on every request (an indexed lookup by hash): a revocation on any instance is seen
 * by every instance at the next request. Marks the key used, at most once a minute, without
 * waiting for the write.
 */
export async function authenticateApiKey(
  db: Database,
  key: string,
  now: Date = new Date(),
): Promise<{ user: User; apiKey: RequestApiKey } | null> {
  if (!apiKeyPattern.test(key)) return null
  const [row] = await db
    .select({ user: users, id: apiKeys.id, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.secretHash, hashSessionToken(key)), isNull(apiKeys.revokedAt)))
    .limit(1)
  if (row === undefined) return null
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= lastUsedResolutionMs) {
    const stale = new Date(now.getTime() - lastUsedResolutionMs)
    void db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))))
      .catch(() => undefined)
  }
  return { user: row.user, apiKey: { id: row.id, scopes: row.scopes } }
}
