import { eq } from 'drizzle-orm'
import type { StampKeyRecord } from '../../crypto/stamps/verify-stamp.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerSessionKeys, signerUsers } from '../../db/signer-schema.ts'

/** A session key and whose it is. */
export type SessionKeyRecord = StampKeyRecord & { userId: string; organizationId: string }

/**
 * Looks up a session key by its compressed lower-case hex public key, for `verifyStamp`; undefined
 * when unknown. Rejects on a database error.
 */
export async function findSessionKey(
  db: SignerDatabase,
  publicKey: string,
): Promise<SessionKeyRecord | undefined> {
  const [row] = await db
    .select({
      userId: signerSessionKeys.userId,
      organizationId: signerUsers.organizationId,
      expiresAt: signerSessionKeys.expiresAt,
      revokedAt: signerSessionKeys.revokedAt,
    })
    .from(signerSessionKeys)
    .innerJoin(signerUsers, eq(signerUsers.id, signerSessionKeys.userId))
    .where(eq(signerSessionKeys.publicKey, publicKey))
  if (row === undefined) return undefined
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    expiresAtMs: row.expiresAt.getTime(),
    revokedAtMs: row.revokedAt?.getTime() ?? null,
  }
}
