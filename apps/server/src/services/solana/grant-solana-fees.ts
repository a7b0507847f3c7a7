import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
import { solanaFeeGrants, solanaFeePolicyGrants } from '../../db/schema.ts'

/** What a grant came to: granted, or which daily cap it would have passed. */
export type SolanaFeeGrantOutcome = 'granted' | 'user-cap' | 'global-cap'

/** Thrown inside the transaction to undo the user's row when the policy's global cap refuses. */
class GlobalCapReached extends Error {}

/**
 * Grants `feeLamports` of sponsored Solana fees to a user under a policy for a UTC day (YYYY-MM-DD)
 * if what the user was granted that day plus `feeLamports` stays within `capLamports` AND what every
 * user together was granted that day under the policy plus `feeLamports` stays within
 * `globalCapLamports`; records both. Resolves 'granted', or the cap that refused ('user-cap' first).
 *
 * The race: requests at a cap's edge, on this instance or others sharing the database, must not
 * all pass. Each count is one upsert that decides: the day's first grant inserts the row (its fee
 * alone was checked against the cap), a later one adds to it only where the sum stays within the
 * cap; Postgres re-checks that condition on the row's newest version under its row lock, so a
 * loser's condition fails. Both upserts run in one transaction, the user's row first, then the
 * policy's (always in that order, so two transactions never wait on each other's rows); a refusal
 * by the global cap rolls the user's grant back. Rejects on a database failure.
 */
export async function grantSolanaFees(
  db: Database,
  grant: {
    userId: string
    policyId: string
    day: string
    feeLamports: bigint
    capLamports: bigint
    globalCapLamports: bigint
  },
): Promise<SolanaFeeGrantOutcome> {
  if (grant.feeLamports > grant.capLamports) return 'user-cap'
  if (grant.feeLamports > grant.globalCapLamports) return 'global-cap'
  const fee = grant.feeLamports.toString()
  try {
    return await db.transaction(async (tx) => {
      const userRows = await tx
        .insert(solanaFeeGrants)
        .values({
          userId: grant.userId,
          policyId: grant.policyId,
          day: grant.day,
          grantedLamports: fee,
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
      if (userRows.length !== 1) return 'user-cap'
      const policyRows = await tx
        .insert(solanaFeePolicyGrants)
        .values({ policyId: grant.policyId, day: grant.day, grantedLamports: fee, grants: 1 })
        .onConflictDoUpdate({
          target: [solanaFeePolicyGrants.policyId, solanaFeePolicyGrants.day],
          set: {
            grantedLamports: sql`solana_fee_policy_grants.granted_lamports + excluded.granted_lamports`,
            grants: sql`solana_fee_policy_grants.grants + 1`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`solana_fee_policy_grants.granted_lamports + excluded.granted_lamports <= ${grant.globalCapLamports.toString()}::numeric`,
        })
        .returning({ grantedLamports: solanaFeePolicyGrants.grantedLamports })
      if (policyRows.length !== 1) throw new GlobalCapReached()
      return 'granted'
    })
  } catch (error) {
    if (error instanceof GlobalCapReached) return 'global-cap'
    throw error
  }
}
