import { signerActivities as activityTypes } from '@quicklinks/protocol/signer-activities'
import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import { z } from 'zod'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerActivities } from '../../db/signer-schema.ts'

/**
 * An organization's multi-owner setup (docs/signer.md#multi-owner): its EVM signer members, the
 * root quorum threshold, and the QuickLinksMultiOwnerAccount whose owners they are.
 */
export type MultiOwnerState = {
  /** The counterfactual account address, fixed by the members at creation (salt 0). */
  accountAddress: Address
  /** The organization's wallet address: a member that the signer signs for. */
  walletMember: Address
  /** EIP-55, in the order they were added. */
  members: Address[]
  rootQuorumThreshold: number
  /** 1 at creation, +1 at every completed change; approvals are bound to it. */
  version: number
}

const addressSchema = z.string().transform((value) => getAddress(value))

const stateSchema = z.object({
  accountAddress: addressSchema,
  walletMember: addressSchema,
  members: z.array(addressSchema),
  rootQuorumThreshold: z.number().int(),
  version: z.number().int(),
})

/** The activity types whose completed result carries the state, in `result.multiOwner`. */
export const stateChangingTypes = [
  activityTypes.multiOwnerCreate.type,
  activityTypes.multiOwnerAdd.type,
  activityTypes.multiOwnerDelete.type,
  activityTypes.multiOwnerUpdateRootQuorum.type,
]

/**
 * The organization's current multi-owner state: the `result.multiOwner` of its completed
 * state-changing activity with the highest version; undefined before `multi-owner-create`. Run it
 * under the organization's multi-owner lock when the answer decides a write.
 */
export async function readMultiOwnerState(
  db: SignerDatabase,
  organizationId: string,
): Promise<MultiOwnerState | undefined> {
  const [row] = await db
    .select({ result: signerActivities.result })
    .from(signerActivities)
    .where(
      and(
        eq(signerActivities.organizationId, organizationId),
        eq(signerActivities.status, 'ACTIVITY_STATUS_COMPLETED'),
        inArray(signerActivities.type, stateChangingTypes),
      ),
    )
    .orderBy(desc(sql`(${signerActivities.result} -> 'multiOwner' ->> 'version')::int`))
    .limit(1)
  if (row === undefined) return undefined
  return stateSchema.parse(row.result?.multiOwner)
}

/** The state as activities' results and responses show it (members as `{evmSignerAddress}`). */
export function describeState(state: MultiOwnerState) {
  return {
    accountAddress: state.accountAddress,
    evmSignerAddress: state.walletMember,
    members: state.members.map((evmSignerAddress) => ({ evmSignerAddress })),
    rootQuorumThreshold: state.rootQuorumThreshold,
  }
}
