import { type Address, type Hex, verifyMessage } from 'viem'

/**
 * Checks that `signature` over the EIP-191 personal message `message` was made by `address`.
 * The default checks plain EOAs; a smart-account (EIP-1271 / ERC-6492) check plugs in here later
 * as `(input) => publicClient.verifyMessage(input)`, which needs a chain connection.
 */
export type SiweSignatureVerifier = (input: {
  address: Address
  message: string
  signature: Hex
}) => Promise<boolean>

/**
 * Recovers the signer of an EIP-191 message signature and compares it with `address`. Resolves
 * false (never rejects) for a signature by another key or one that is not a valid secp256k1
 * signature at all.
 */
export const verifyEoaSignature: SiweSignatureVerifier = async (input) => {
  try {
    return await verifyMessage(input)
  } catch {
    return false
  }
}
