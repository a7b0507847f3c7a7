import {
  type Address,
  type CustomSource,
  type Hex,
  hashMessage,
  hashTypedData,
  keccak256,
  type LocalAccount,
  parseSignature,
  serializeSignature,
  serializeTransaction,
  type TransactionSerializable,
} from 'viem'
import { toAccount } from 'viem/accounts'
import { hashAuthorization } from 'viem/utils'

/**
 * A viem LocalAccount (`toAccount`) whose every method hashes locally with viem and has the
 * signer sign only the 32-byte digest (`signHash`: sign-payload with HASH_FUNCTION_NO_OP). The
 * results are viem's own shapes: a 65-byte `r‖s‖v` signature (v 27/28), the serialised signed
 * transaction, or the signed EIP-7702 authorization.
 *
 * Why hash locally: the service signs one primitive, and what was signed is exactly what viem
 * would sign with a private key, so `verifyMessage`, `recoverTransactionAddress` and
 * `recoverAuthorizationAddress` accept the results.
 *
 * Fails by rejecting with whatever `signHash` rejects with, or viem's error for a request it
 * cannot hash or serialise (malformed typed data, an invalid transaction).
 */
export function createSignerAccount(input: {
  address: Address
  signHash: (hash: Hex) => Promise<Hex>
}): LocalAccount {
  const sign = async (hash: Hex): Promise<Hex> =>
    serializeSignature(parseSignature(await input.signHash(hash)))

  const signTransaction: CustomSource['signTransaction'] = async (transaction, options) => {
    const serializer = options?.serializer ?? serializeTransaction
    // EIP-4844: sign the payload body without the sidecars, as viem's own signTransaction does.
    const signable =
      (transaction as TransactionSerializable).type === 'eip4844'
        ? { ...transaction, sidecars: false }
        : transaction
    const signature = parseSignature(await sign(keccak256(await serializer(signable))))
    return serializer(transaction, signature)
  }

  return toAccount({
    address: input.address,
    sign: ({ hash }) => sign(hash),
    signMessage: ({ message }) => sign(hashMessage(message)),
    signTypedData: (typedData) => sign(hashTypedData(typedData)),
    signTransaction,
    signAuthorization: async (authorization) => {
      const address = authorization.contractAddress ?? authorization.address
      const { chainId, nonce } = authorization
      const { r, s, yParity } = parseSignature(await sign(hashAuthorization({ address, chainId, nonce })))
      return { address, chainId, nonce, r, s, yParity }
    },
  })
}
