import type { Activity } from './signer-types.ts'

/** An EVM signer member of a multi-owner organization (docs/signer.md#multi-owner-members). */
export type MultiOwnerMember = { evmSignerAddress: `0x${string}` }

/** What a waiting quorum activity shows in `result.consensus` (docs/signer.md#multi-owner-approvals). */
export type MultiOwnerConsensus = {
  /** The text each member signs with EIP-191 (`personal_sign`) to approve this activity. */
  approvalMessage: string
  approvedBy: `0x${string}`[]
  required: number
  expiresAt: string
  version: number
  requestHash: string
  /** A signature activity's member shares so far (each member's raw signature of the payload hash). */
  payloadSignatures?: MultiOwnerSignature[]
}

/** One member's 65-byte ECDSA signature of a multi-owner-sign-raw-payload's hash. */
export type MultiOwnerSignature = { evmSignerAddress: `0x${string}`; signature: `0x${string}` }

/** The members and the account a completed create, add, delete or quorum change answers. */
export type MultiOwnerSetup = {
  /** The organization's wallet address: the member the signer signs for. */
  evmSignerAddress: `0x${string}`
  members: MultiOwnerMember[]
  rootQuorumThreshold: number
  /** The counterfactual QuickLinksMultiOwnerAccount of the members at creation (salt 0). */
  accountAddress: `0x${string}`
}

/** The result of a multi-owner activity: waiting (`consensus`) or done (its outcome). */
export type MultiOwnerActivityResult = Partial<MultiOwnerSetup> & {
  consensus?: MultiOwnerConsensus
  approvedBy?: MultiOwnerMember[]
  /**
   * A completed add, delete or quorum change: what the account must run
   * (`execute(account, 0, updateOwners(added, removed, threshold))`, as a k-of-n user operation).
   */
  ownerUpdate?: {
    added: `0x${string}`[]
    removed: `0x${string}`[]
    threshold: number
    callData: `0x${string}`
  }
  /**
   * A completed multi-owner-sign-raw-payload: the approving members' signatures (the wallet key's
   * among them) concatenated by increasing signer address, as QuickLinksMultiOwnerAccount reads them.
   */
  signature?: `0x${string}`
  /** The same signatures one by one, in that order. */
  signatures?: MultiOwnerSignature[]
  error?: string
}

export type MultiOwnerActivity = Activity<MultiOwnerActivityResult>

/** `multi-owner-create`'s answer. */
export type MultiOwnerCreateResult = {
  result: MultiOwnerSetup & { orgId: string }
  activity: MultiOwnerActivity
}

/**
 * A member's approval of one activity: its EIP-191 signature over the activity's approval message,
 * and for a multi-owner-sign-raw-payload its raw signature of the payload hash (`payloadSignature`,
 * its share of the k signatures the account needs).
 */
export type MultiOwnerApproval = {
  activityId: string
  evmSignerAddress: `0x${string}`
  signature: `0x${string}`
  payloadSignature?: `0x${string}`
}

/** The paths that take a member's approval (the activity's own path). */
export type MultiOwnerApprovalPath =
  | 'multi-owner-add'
  | 'multi-owner-delete'
  | 'multi-owner-update-root-quorum'
  | 'multi-owner-sign-raw-payload'
