import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
import { solanaFeeGrants } from '../../db/schema.ts'

/**
 * Grants `feeLamports` of sponsored Solana fees to a user under a policy for a UTC day (YYYY-MM-DD)
 * if what they were granted that day plus `feeLamports` stays within `capLamports`, and records it.
 * Resolves true when granted.
 *
 * The race: two requests at the cap's edge must not both pass. One upsert decides: the first grant
 * of the day inserts the row (its fee alone was checked against the cap), a later one adds to it
 * only where the sum stays within the cap; Postgres re-checks that condition on the row's newest
 * version under its row lock, so the loser's condition fails. Rejects on a database failure.
 */
export async function grantSolanaFees(
  db: Database,
  grant: { userId: string; policyId: string; day: string; feeLamports: bigint; capLamports: bigint },
): Promise<boolean> {
  if (grant.feeLamports > grant.capLamports) return false
  const rows = await db
    .insert(solanaFeeGrants)
    .values({
      userId: grant.userId,
      policyId: grant.policyId,
      day: grant.day,
      grantedLamports: grant.feeLamports.toString(),
      grants: 1,
    })
    .onConflictDoUpdate({
      target: [solanaFeeGrants.userId, solanaFeeGrants.policyId, solanaFeeGrants.day],
      set: {
        grantedLamports: sql`solana_fee_grants.granted_lamports + excluded.granted_lamports`,
        grants: sql`solana_fee_grants.grants + 1`,
        updatedAt: sql`now()`,
      },
      setWhere: sql`solana_fee_grants.granted_lamports + excluded.granted_lamports <= ${grant.capLamports.toString()}::numeric`,
    })
    .returning({ grantedLamports: solanaFeeGrants.grantedLamports })
  return rows.length === 1
}
