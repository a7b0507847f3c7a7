import { type Address, type Hex, verifyMessage } from 'viem'

/**
 * Checks that `signature` over the EIP-191 personal message `message` was made by `address` (on
 * `chainId`, the message's Chain ID, where a smart account's ERC-1271 / ERC-6492 check runs; see
 * createSiweSignatureVerifier). The default, verifyEoaSignature, checks plain EOAs offline.
 */
export type SiweSignatureVerifier = (input: {
  address: Address
  message: string
  signature: Hex
  chainId: number
}) => Promise<boolean>

/**
 * Recovers the signer of an EIP-191 message signature and compares it with `address`. Resolves
 * false (never rejects) for a signature by another key or one that is not a valid secp256k1
 * signature at all.
 */
export const verifyEoaSignature: SiweSignatureVerifier = async (input) => {
  try {
    return await verifyMessage({ address: input.address, message: input.message, signature: input.signature })
  } catch {
    return false
  }
}
