import { inArray, isNotNull, lt, or } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import {
  signerCodeFailures,
  signerContactLocks,
  signerOtps,
  signerSessionKeys,
  signerStampReplays,
  signerTotpFailures,
  signerWalletReservations,
} from '../../db/signer-schema.ts'

/** Used codes and dead session keys are kept a day, for support questions, then deleted. */
const retentionMs = 24 * 60 * 60_000

/**
 * Deletes replay records past their expiry, codes that expired more than a day ago (a code lives
 * 10 minutes, so every send of the last 24 hours stays for the daily caps), session keys that
 * expired more than a day ago, wrong-code records (and wrong authenticator codes) older than the failure budget's day, and locks
 * that ended more than a day ago (a newer lock's start is all the budget reads), and at once the
 * wallets `signup` reserved for codes that expired or were replaced (a used code's went with its
 * use), so no sealed seed outlives the code it was made for. Any instance may run it at any time.
 * Rejects on a database error.
 */
export async function deleteExpiredSignerRows(db: SignerDatabase, nowMs: number): Promise<void> {
  const now = new Date(nowMs)
  const retainedSince = new Date(nowMs - retentionMs)
  await db.delete(signerStampReplays).where(lt(signerStampReplays.expiresAt, now))
  await db.delete(signerWalletReservations).where(
    inArray(
      signerWalletReservations.otpId,
      db
        .select({ id: signerOtps.id })
        .from(signerOtps)
        .where(or(lt(signerOtps.expiresAt, now), isNotNull(signerOtps.supersededAt))),
    ),
  )
  await db.delete(signerOtps).where(lt(signerOtps.expiresAt, retainedSince))
  await db.delete(signerSessionKeys).where(lt(signerSessionKeys.expiresAt, retainedSince))
  await db.delete(signerCodeFailures).where(lt(signerCodeFailures.createdAt, retainedSince))
  await db.delete(signerTotpFailures).where(lt(signerTotpFailures.createdAt, retainedSince))
  await db.delete(signerContactLocks).where(lt(signerContactLocks.lockedUntil, retainedSince))
}
