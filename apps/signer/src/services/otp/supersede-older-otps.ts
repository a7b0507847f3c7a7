import { and, eq, isNull, lt } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerOtpPurpose, signerOtps } from '../../db/signer-schema.ts'
import type { Contact } from '../contacts/contact-schemas.ts'

/**
 * Retires every unused code (and magic link) a contact got for the same purpose and at the same
 * requester's ask before the one created at `createdAt`: only a requester's newest code works, so
 * a guesser cannot keep several alive, and a stranger's codes never retire the owner's
 * (docs/decisions/0022).
 * Call it once the new code was delivered, so a failed send leaves the older codes usable. Codes
 * created in the same millisecond are left alone (neither retires the other). Rejects on a
 * database error.
 */
export async function supersedeOlderOtps(
  db: SignerDatabase,
  input: { contact: Contact; purpose: SignerOtpPurpose; requester: string; createdAt: Date; nowMs: number },
): Promise<void> {
  await db
    .update(signerOtps)
    .set({ supersededAt: new Date(input.nowMs) })
    .where(
      and(
        eq(signerOtps.channel, input.contact.channel),
        eq(signerOtps.contact, input.contact.address),
        eq(signerOtps.purpose, input.purpose),
        eq(signerOtps.requester, input.requester),
        lt(signerOtps.createdAt, input.createdAt),
        isNull(signerOtps.usedAt),
        isNull(signerOtps.supersededAt),
      ),
    )
}
