import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, gt } from 'drizzle-orm'
import { siweNonces } from '../../db/schema.ts'

/**
 * Uses up a nonce: true when it was handed out, has not expired and was not used before. The row
 * is deleted in the same statement, so two concurrent logins with one nonce cannot both succeed.
 * Rejects only when the database fails.
 */
export async function consumeSiweNonce(
  db: Database,
  nonce: string,
  now: Date = new Date(),
): Promise<boolean> {
  const deleted = await db
    .delete(siweNonces)
    .where(and(eq(siweNonces.nonce, nonce), gt(siweNonces.expiresAt, now)))
    .returning({ nonce: siweNonces.nonce })
  return deleted.length === 1
}
