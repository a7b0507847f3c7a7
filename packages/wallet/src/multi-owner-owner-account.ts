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
import type { MultiOwnerActivity } from './multi-owner-types.ts'
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
   * whose `result.consensus.approvalMessage` they sign; resolve once their approvals were posted
   * (`approveMultiOwnerActivity`). Without it such a signature fails at once.
   */
  awaitApprovals?: (activity: MultiOwnerActivity) => Promise<void>
}

/**
 * The organization's wallet key as the owner of a multi-owner smart account
 * (docs/signer.md#multi-owner): a viem LocalAccount whose every signature is a
 * `multi-owner-sign-raw-payload` over the locally computed hash, so it signs only what the root
 * quorum approves. Give it to `toQuickLinksMultiOwnerSmartAccount` as `owner`.
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
    })
    if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' && options.awaitApprovals) {
      await options.awaitApprovals(activity)
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
