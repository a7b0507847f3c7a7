import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, sql } from 'drizzle-orm'
import { sponsorGasGrants, sponsorGasPolicyGrants } from '../../db/schema.ts'

export type SponsorGrantKey = {
  userId: string
  policyId: string
  /** The UTC day, YYYY-MM-DD. */
  day: string
}

/** Which cap a refused grant hit: the user's own, or the policy's for all users together. */
export type SponsorGrantOutcome = 'granted' | 'user-cap' | 'policy-cap'

/** Thrown inside the transaction to roll the user's row back when the policy's cap refuses. */
class PolicyCapReached extends Error {}

/**
 * Grants `costWei` of sponsored gas to a user under a policy for a UTC day if what they were granted
 * that day plus `costWei` stays within `capWei`, and what everyone was granted under the policy
 * that day plus `costWei` stays within `globalCapWei`; records both, or neither. Resolves which
 * cap refused, or 'granted'.
 *
 * The race: two requests at a cap's edge must not both pass, on one instance or several. Each row
 * grows by one upsert whose condition is its cap: the first grant of the day inserts the row (its
 * cost alone was checked), a later one adds to it only where the sum stays within the cap; Postgres
 * re-checks that condition on the row's newest version under its row lock, so concurrent grants
 * queue on the row and the loser's condition fails. Both upserts run in one transaction (the user's
 * row first, then the policy's, always in that order, so two grants never wait on each other in a
 * cycle); when the policy's refuses, the user's is rolled back. Rejects on a database failure.
 */
export async function grantSponsoredGas(
  db: Database,
  grant: SponsorGrantKey & { costWei: bigint; capWei: bigint; globalCapWei: bigint },
): Promise<SponsorGrantOutcome> {
  if (grant.costWei > grant.capWei) return 'user-cap'
  if (grant.costWei > grant.globalCapWei) return 'policy-cap'
  try {
    return await db.transaction(async (tx) => {
      const userRows = await tx
        .insert(sponsorGasGrants)
        .values({
          userId: grant.userId,
          policyId: grant.policyId,
          day: grant.day,
          grantedWei: grant.costWei.toString(),
          grants: 1,
        })
        .onConflictDoUpdate({
          target: [sponsorGasGrants.userId, sponsorGasGrants.policyId, sponsorGasGrants.day],
          set: {
            grantedWei: sql`sponsor_gas_grants.granted_wei + excluded.granted_wei`,
            grants: sql`sponsor_gas_grants.grants + 1`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`sponsor_gas_grants.granted_wei + excluded.granted_wei <= ${grant.capWei.toString()}::numeric`,
        })
        .returning({ grantedWei: sponsorGasGrants.grantedWei })
      if (userRows.length !== 1) return 'user-cap'
      const policyRows = await tx
        .insert(sponsorGasPolicyGrants)
        .values({ policyId: grant.policyId, day: grant.day, grantedWei: grant.costWei.toString(), grants: 1 })
        .onConflictDoUpdate({
          target: [sponsorGasPolicyGrants.policyId, sponsorGasPolicyGrants.day],
          set: {
            grantedWei: sql`sponsor_gas_policy_grants.granted_wei + excluded.granted_wei`,
            grants: sql`sponsor_gas_policy_grants.grants + 1`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`sponsor_gas_policy_grants.granted_wei + excluded.granted_wei <= ${grant.globalCapWei.toString()}::numeric`,
        })
        .returning({ grantedWei: sponsorGasPolicyGrants.grantedWei })
      if (policyRows.length !== 1) throw new PolicyCapReached()
      return 'granted'
    })
  } catch (error) {
    if (error instanceof PolicyCapReached) return 'policy-cap'
    throw error
  }
}

/**
 * Wei granted on that day to the user under the policy, and under the policy to everyone (0 where
 * nothing was). Rejects on a database failure.
 */
export async function getGrantedSponsoredGas(
  db: Database,
  key: SponsorGrantKey,
): Promise<{ userWei: bigint; policyWei: bigint }> {
  const [[userRow], [policyRow]] = await Promise.all([
    db
      .select({ grantedWei: sponsorGasGrants.grantedWei })
      .from(sponsorGasGrants)
      .where(
        and(
          eq(sponsorGasGrants.userId, key.userId),
          eq(sponsorGasGrants.policyId, key.policyId),
          eq(sponsorGasGrants.day, key.day),
        ),
      ),
    db
      .select({ grantedWei: sponsorGasPolicyGrants.grantedWei })
      .from(sponsorGasPolicyGrants)
      .where(and(eq(sponsorGasPolicyGrants.policyId, key.policyId), eq(sponsorGasPolicyGrants.day, key.day))),
  ])
  return {
    userWei: userRow === undefined ? 0n : BigInt(userRow.grantedWei),
    policyWei: policyRow === undefined ? 0n : BigInt(policyRow.grantedWei),
  }
}
