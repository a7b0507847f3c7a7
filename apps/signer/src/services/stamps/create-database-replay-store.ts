import { and, eq, gt, lte, sql } from 'drizzle-orm'
import type { StampReplayStore } from '../../crypto/stamps/verify-stamp.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerStampReplays } from '../../db/signer-schema.ts'

/**
 * The stamp replay store over `signer_stamp_replays`, shared by every instance. `markSeen` is one
 * `INSERT … ON CONFLICT DO UPDATE … WHERE expired RETURNING`: it returns a row only when this call
 * recorded the hash (new, or reusing an expired record), so two concurrent identical bodies never
 * both pass. Times come from `now` (epoch ms), the clock `verifyStamp` judges freshness with.
 */
export function createDatabaseReplayStore(db: SignerDatabase, now: () => number): StampReplayStore {
  return {
    async hasSeen(bodyHash) {
      const [row] = await db
        .select({ bodyHash: signerStampReplays.bodyHash })
        .from(signerStampReplays)
        .where(
          and(eq(signerStampReplays.bodyHash, bodyHash), gt(signerStampReplays.expiresAt, new Date(now()))),
        )
      return row !== undefined
    },
    async markSeen(bodyHash, expiresAtMs) {
      const rows = await db
        .insert(signerStampReplays)
        .values({ bodyHash, expiresAt: new Date(expiresAtMs) })
        .onConflictDoUpdate({
          target: signerStampReplays.bodyHash,
          set: { expiresAt: sql`excluded.expires_at` },
          setWhere: lte(signerStampReplays.expiresAt, new Date(now())),
        })
        .returning({ bodyHash: signerStampReplays.bodyHash })
      return rows.length === 1
    },
  }
}
