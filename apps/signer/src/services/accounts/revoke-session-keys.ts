import { and, eq, isNull, ne } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerSessionKeys } from '../../db/signer-schema.ts'

/**
 * Which of a user's session keys to end: the one that stamped a logout (`publicKey`), or every
 * one but the one that stamped a contact change (`exceptPublicKey`).
 */
export type SessionKeySelection = { userId: string } & ({ publicKey: string } | { exceptPublicKey: string })

/**
 * Ends session keys now: sets `revoked_at`, so the next stamp made with one is refused with
 * KEY_REVOKED ('Your session has ended. Sign in again.') on every instance at once, a copied key
 * included. The rows stay until a day after they expire (then the sweep deletes them), so the
 * refusal says why. Keys revoked earlier keep their first revocation time.
 *
 * Resolves with how many keys this call revoked; rejects on a database error. Pass a transaction
 * to revoke together with another write.
 */
export async function revokeSessionKeys(
  db: SignerDatabase,
  selection: SessionKeySelection,
  nowMs: number,
): Promise<number> {
  const which =
    'publicKey' in selection
      ? eq(signerSessionKeys.publicKey, selection.publicKey)
      : ne(signerSessionKeys.publicKey, selection.exceptPublicKey)
  const rows = await db
    .update(signerSessionKeys)
    .set({ revokedAt: new Date(nowMs) })
    .where(and(eq(signerSessionKeys.userId, selection.userId), isNull(signerSessionKeys.revokedAt), which))
    .returning({ id: signerSessionKeys.id })
  return rows.length
}
