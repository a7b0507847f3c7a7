import {
  type Address,
  type Hex,
  hashMessage,
  hashTypedData,
  type LocalAccount,
  type TypedData,
  type TypedDataDefinition,
} from 'viem'
import { toAccount } from 'viem/accounts'
import type { MultiOwnerActivity, MultiOwnerApproval } from './multi-owner-types.ts'
import { pollActivity } from './poll-activity.ts'
import type { SignerClient } from './signer-client.ts'
import type { Stamper } from './stamper.ts'
import { createWalletError } from './wallet-error.ts'

export type MultiOwnerOwnerAccountOptions = {
  client: SignerClient
  stamper: Stamper
  organizationId: string
  /** The organization's wallet address: the member the signer signs for (`evmSignerAddress`). */
  address: Address
  /**
   * Called when a signature waits for the other members (CONSENSUS_NEEDED), with the activity
   * whose `result.consensus.approvalMessage` they sign and the 32-byte `payload` hash each of them
   * signs too (`signMultiOwnerApproval`); resolve once their approvals were posted
   * (`approveMultiOwnerActivity`). Without it such a signature fails at once.
   */
  awaitApprovals?: (activity: MultiOwnerActivity, request: { payload: Hex }) => Promise<void>
  /** Approvals to ask for beyond the root quorum threshold (the account's own threshold on chain). */
  requiredApprovals?: number
}

/**
 * The organization's members as the owner of a multi-owner smart account
 * (docs/signer.md#multi-owner): a viem LocalAccount whose every signature is a
 * `multi-owner-sign-raw-payload` over the locally computed hash, so the wallet key signs only what
 * the root quorum approves, and the answer is the k approving members' signatures concatenated by
 * increasing address (what QuickLinksMultiOwnerAccount checks). Give it to
 * `toQuickLinksMultiOwnerSmartAccount` as `owner`, with the account's threshold.
 *
 * Fails (each signature) like `pollActivity`: 'Failed to get activity with with id {id} (status:
 * ACTIVITY_STATUS_CONSENSUS_NEEDED)' when the approvals are still missing, FAILED when the quorum
 * changed or the hour passed; a transaction cannot be signed this way.
 */
export function toMultiOwnerOwnerAccount(options: MultiOwnerOwnerAccountOptions): LocalAccount {
  const { client, stamper, organizationId, address } = options
  const getActivity = async (activityId: string) =>
    (await client.getActivity(stamper, organizationId, activityId)).activity as MultiOwnerActivity

  const sign = async (hash: Hex): Promise<Hex> => {
    let { activity } = await client.multiOwnerSignRawPayload(stamper, organizationId, {
      signWith: address,
      payload: hash,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
      ...(options.requiredApprovals === undefined ? {} : { requiredApprovals: options.requiredApprovals }),
    })
    if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' && options.awaitApprovals) {
      await options.awaitApprovals(activity, { payload: hash })
      activity = await getActivity(activity.id)
    }
    const done = await pollActivity({ activity, getActivity })
    const signature = done.result?.signature
    if (signature === undefined) throw createWalletError(`Activity ${done.id} completed without a signature`)
    return signature
  }

  return toAccount({
    address,
    sign: ({ hash }) => sign(hash),
    signMessage: ({ message }) => sign(hashMessage(message)),
    signTypedData: (typedData) => sign(hashTypedData(typedData as TypedDataDefinition<TypedData, string>)),
    signTransaction: async () => {
      throw createWalletError('A multi-owner member key signs hashes only, not transactions.')
    },
  })
}

/** What a member's key must do to approve: a viem LocalAccount has both (`sign` for raw hashes). */
export type MultiOwnerMemberSigner = {
  address: Address
  signMessage: (input: { message: string }) => Promise<Hex>
  sign?: (input: { hash: Hex }) => Promise<Hex>
}

/**
 * A member's approval of a waiting activity, made with the member's own key: its EIP-191
 * signature of `result.consensus.approvalMessage`, and, when `payload` is given (a
 * multi-owner-sign-raw-payload), its raw signature of that 32-byte hash, its share of the k
 * signatures. Post it with `approveMultiOwnerActivity` at the activity's path. A member checks
 * first that `payload` is what it agrees to (for a user operation: recompute its hash).
 *
 * Fails when `payload` is given and the member's key cannot sign a raw hash.
 */
export async function signMultiOwnerApproval(input: {
  member: MultiOwnerMemberSigner
  activity: MultiOwnerActivity
  payload?: Hex
}): Promise<MultiOwnerApproval> {
  const { member, activity, payload } = input
  const message = activity.result?.consensus?.approvalMessage
  if (message === undefined) throw createWalletError(`Activity ${activity.id} does not wait for approvals`)
  const approval: MultiOwnerApproval = {
    activityId: activity.id,
    evmSignerAddress: member.address,
    signature: await member.signMessage({ message }),
  }
  if (payload === undefined) return approval
  if (member.sign === undefined) throw createWalletError('This member key cannot sign a raw hash.')
  return { ...approval, payloadSignature: await member.sign({ hash: payload }) }
}
