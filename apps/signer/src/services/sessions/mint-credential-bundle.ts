import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm'
import { encryptCredentialBundle } from '../../crypto/bundles/encrypt-credential-bundle.ts'
import { createSessionKey } from '../../crypto/sessions/create-session-key.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerSessionKeys } from '../../db/signer-schema.ts'

/** A user keeps at most this many live session keys; the oldest beyond it are revoked. */
export const maxLiveSessionKeys = 10

/**
 * Completes a login: mints a fresh P-256 session key for the user, stores its public half with its
 * expiry and the key it was encrypted to, revokes the user's oldest live keys beyond {@link maxLiveSessionKeys}, and returns the
 * private half encrypted to `targetPublicKey` as a credential bundle (the only copy; wiped here).
 *
 * Fails by rejecting with the BundleError `TARGET_KEY_INVALID` (checked before anything is stored)
 * or on a database error.
 */
export async function mintCredentialBundle(
  db: SignerDatabase,
  input: { userId: string; targetPublicKey: string; expirationSeconds: number; nowMs: number },
): Promise<{ credentialBundle: string; publicKey: string; expiresAt: Date }> {
  const sessionKey = createSessionKey()
  try {
    const credentialBundle = await encryptCredentialBundle({
      sessionPrivateKey: sessionKey.privateKey,
      targetPublicKey: input.targetPublicKey,
    })
    const now = new Date(input.nowMs)
    const expiresAt = new Date(input.nowMs + input.expirationSeconds * 1000)
    await db.insert(signerSessionKeys).values({
      publicKey: sessionKey.publicKey,
      userId: input.userId,
      // Kept so add-oauth-provider can check a token's nonce against this session's frame key.
      targetPublicKey: input.targetPublicKey.toLowerCase(),
      createdAt: now,
      expiresAt,
    })
    await revokeSessionKeysBeyondLimit(db, input.userId, now)
    return { credentialBundle, publicKey: sessionKey.publicKey, expiresAt }
  } finally {
    sessionKey.privateKey.fill(0)
  }
}

async function revokeSessionKeysBeyondLimit(db: SignerDatabase, userId: string, now: Date): Promise<void> {
  const surplus = db
    .select({ id: signerSessionKeys.id })
    .from(signerSessionKeys)
    .where(
      and(
        eq(signerSessionKeys.userId, userId),
        isNull(signerSessionKeys.revokedAt),
        gt(signerSessionKeys.expiresAt, now),
      ),
    )
    .orderBy(desc(signerSessionKeys.id))
    .offset(maxLiveSessionKeys)
  await db.update(signerSessionKeys).set({ revokedAt: now }).where(inArray(signerSessionKeys.id, surplus))
}
