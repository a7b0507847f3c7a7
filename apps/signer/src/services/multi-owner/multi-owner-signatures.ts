import { AppError } from '@quicklinks/core/app-error'
import { type Address, concatHex, getAddress, type Hex, isAddressEqual, recoverAddress } from 'viem'
import type { SignerAccount } from '../accounts/find-account.ts'
import { planRawPayloadSignature, type SignRawPayloadParameters } from '../wallets/sign-raw-payload.ts'

/** One member's 65-byte ECDSA signature of a multi-owner-sign-raw-payload's hash. */
export type MemberSignature = { evmSignerAddress: Address; signature: Hex }

/**
 * The 32-byte hash a multi-owner-sign-raw-payload activity signs (its `signWith` is the wallet
 * member, checked when it was asked, so the plan is always an EVM one).
 */
export function getQuorumPayloadHash(account: SignerAccount, request: SignRawPayloadParameters): Hex {
  const plan = planRawPayloadSignature(account, request)
  if (plan.chain !== 'evm') throw new Error('A multi-owner signature is always over an EVM hash')
  return plan.hash
}

/**
 * Checks a member's share of a multi-owner signature: a raw 65-byte ECDSA signature by `member`
 * over the activity's 32-byte hash (what `signTypedData` gives when the hash is an EIP-712 digest,
 * as EntryPoint v0.8's user-operation hashes and the account's replay-safe hashes are).
 *
 * Fails with VALIDATION_FAILED (422) when it is missing, FORBIDDEN (403, reason
 * PAYLOAD_SIGNATURE_INVALID) when it is not `member`'s signature of that hash.
 */
export async function checkPayloadSignature(
  hash: Hex,
  member: Address,
  payloadSignature: Hex | undefined,
): Promise<Hex> {
  if (payloadSignature === undefined) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage:
        'approval.payloadSignature: required to approve a signature (your signature of the payload hash)',
      field: 'approval.payloadSignature',
    })
  }
  const signer = await recoverAddress({ hash, signature: payloadSignature }).catch(() => undefined)
  if (signer === undefined || !isAddressEqual(signer, member)) {
    throw new AppError('FORBIDDEN', {
      userMessage: `approval.payloadSignature is not ${member}'s signature of this activity's payload.`,
      details: { reason: 'PAYLOAD_SIGNATURE_INVALID' },
    })
  }
  return payloadSignature
}

/**
 * The account's signature format (QuickLinksMultiOwnerAccount): the members' 65-byte signatures
 * concatenated by strictly increasing signer address. Pure.
 */
export function combineSignatures(signatures: readonly MemberSignature[]): {
  signature: Hex
  signatures: MemberSignature[]
} {
  const sorted = signatures
    .map((entry) => ({ evmSignerAddress: getAddress(entry.evmSignerAddress), signature: entry.signature }))
    .sort((a, b) => (BigInt(a.evmSignerAddress) < BigInt(b.evmSignerAddress) ? -1 : 1))
  return { signature: concatHex(sorted.map((entry) => entry.signature)), signatures: sorted }
}
