import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, sql } from 'drizzle-orm'
import { sponsorGasGrants } from '../../db/schema.ts'

export type SponsorGrantKey = {
  userId: string
  policyId: string
  /** The UTC day, YYYY-MM-DD. */
  day: string
}

/**
 * Grants `costWei` of sponsored gas to a user under a policy for a UTC day if what they were granted
 * that day plus `costWei` stays within `capWei`, and records it. Resolves true when granted.
 *
 * The race: two requests at the cap's edge must not both pass. One upsert decides: the first grant
 * of the day inserts the row (its cost alone was checked against the cap), a later one adds to it
 * only where the sum stays within the cap; Postgres re-checks that condition on the row's newest
 * version under its row lock, so concurrent grants queue on the row and the loser's condition
 * fails. Rejects on a database failure.
 */
export async function grantSponsoredGas(
  db: Database,
  grant: SponsorGrantKey & { costWei: bigint; capWei: bigint },
): Promise<boolean> {
  if (grant.costWei > grant.capWei) return false
  const rows = await db
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
  return rows.length === 1
}

/** Wei granted to the user under the policy on that day (0 when nothing was). Rejects on a database failure. */
export async function getGrantedSponsoredGas(db: Database, key: SponsorGrantKey): Promise<bigint> {
  const [row] = await db
    .select({ grantedWei: sponsorGasGrants.grantedWei })
    .from(sponsorGasGrants)
    .where(
      and(
        eq(sponsorGasGrants.userId, key.userId),
        eq(sponsorGasGrants.policyId, key.policyId),
        eq(sponsorGasGrants.day, key.day),
      ),
    )
  return row === undefined ? 0n : BigInt(row.grantedWei)
}
