import { randomBytes } from 'node:crypto'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sessions } from '../../db/schema.ts'
import { hashSessionToken } from './hash-session-token.ts'

/** How long a session lasts from sign-in; there is no sliding renewal. */
export const sessionLifetimeMs = 14 * 24 * 60 * 60 * 1000

export type CreatedSession = {
  /** The secret for the cookie: 32 random bytes, base64url. Never stored. */
  token: string
  expiresAt: Date
}

/**
 * Starts a new session for a user with a fresh random id (a new one at every sign-in, so a
 * planted cookie can never be promoted to a signed-in session). Rejects if the user does not exist.
 */
export async function createSession(
  db: Database,
  input: { userId: string; now?: Date },
): Promise<CreatedSession> {
  const now = input.now ?? new Date()
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + sessionLifetimeMs)
  await db
    .insert(sessions)
    .values({ id: hashSessionToken(token), userId: input.userId, createdAt: now, expiresAt })
  return { token, expiresAt }
}
