import { randomBytes } from 'node:crypto'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { lte } from 'drizzle-orm'
import { siweNonces } from '../../db/schema.ts'

/** How long a nonce can be used after it was handed out. */
export const siweNonceLifetimeMs = 10 * 60 * 1000

/**
 * Hands out a fresh single-use Sign-In with Ethereum nonce: 128 random bits as 32 hex characters
 * (EIP-4361 wants at least 8 alphanumerics), stored for 10 minutes. Sweeps expired nonces on the
 * way, so the table stays small without a worker. Rejects when the database fails.
 */
export async function createSiweNonce(db: Database, now: Date = new Date()): Promise<string> {
  const nonce = randomBytes(16).toString('hex')
  await db.delete(siweNonces).where(lte(siweNonces.expiresAt, now))
  await db
    .insert(siweNonces)
    .values({ nonce, createdAt: now, expiresAt: new Date(now.getTime() + siweNonceLifetimeMs) })
  return nonce
}
