import { randomBytes } from 'node:crypto'
import { type ApiKey, type ApiKeyScope, apiKeyMaxLiveKeys, apiKeyPrefix } from '@quicklinks/core/api/api-keys'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, count, desc, eq, isNull } from 'drizzle-orm'
import { type ApiKeyRow, apiKeys } from '../../db/schema.ts'
import { hashSessionToken } from '../sessions/hash-session-token.ts'

/** A key row as its owner's list shows it (never the hash). */
export function toApiKeyResponse(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }
}

/**
 * Makes a key for `userId`: 256 random bits after `qlk_`, stored as its SHA-256 only. Answers the
 * row and the key, which exists nowhere else afterwards. Refuses a user's 21st live key (409).
 */
export async function createApiKey(
  db: Database,
  input: { userId: string; name: string; scopes: readonly ApiKeyScope[] },
): Promise<{ row: ApiKeyRow; key: string }> {
  const [live] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, input.userId), isNull(apiKeys.revokedAt)))
  if ((live?.n ?? 0) >= apiKeyMaxLiveKeys) {
    throw new AppError('CONFLICT', {
      userMessage: `You already have ${apiKeyMaxLiveKeys} live API keys; revoke one first.`,
    })
  }
  const key = `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`
  const [row] = await db
    .insert(apiKeys)
    .values({
      userId: input.userId,
      name: input.name,
      secretHash: hashSessionToken(key),
      prefix: key.slice(0, apiKeyPrefix.length + 4),
      // Stored in one order whatever order they came in, without repeats.
      scopes: [...new Set(input.scopes)].sort(),
    })
    .returning()
  if (row === undefined) throw new Error('insert returned no row')
  return { row, key }
}

/** The user's keys, newest first, revoked ones included. */
export async function listApiKeys(db: Database, userId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt))
}

/**
 * Revokes one of the user's keys (idempotent: a revoked key stays revoked at its first time).
 * Another user's key, or an unknown id, is a 404.
 */
export async function revokeApiKey(
  db: Database,
  userId: string,
  id: string,
  now = new Date(),
): Promise<ApiKeyRow> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
  if (isUuid) {
    await db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    const [row] = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    if (row !== undefined) return row
  }
  throw new AppError('NOT_FOUND', { message: 'No such API key' })
}
