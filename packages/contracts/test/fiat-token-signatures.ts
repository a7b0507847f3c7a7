import type { Address, Hex, LocalAccount } from 'viem'

/**
 * EIP-712 messages of the devnet's USDC (FiatToken), written out by hand from EIP-2612 and
 * EIP-3009 rather than read from the contract, so the tests check the contract against the
 * standards, as a wallet signing for the real USDC would.
 */

/** The EIP-712 domain of a FiatToken deployed as USDC at `address` on `chainId`. */
export function usdcDomain(address: Address, chainId: number) {
  return { name: 'USD Coin', version: '2', chainId, verifyingContract: address } as const
}

const authorizationFields = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const

/** EIP-2612 Permit, signed by `owner`. */
export function signPermit(
  owner: LocalAccount,
  domain: ReturnType<typeof usdcDomain>,
  message: { spender: Address; value: bigint; nonce: bigint; deadline: bigint },
): Promise<Hex> {
  return owner.signTypedData({
    domain,
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner: owner.address, ...message },
  })
}

/** An EIP-3009 authorization as its signer signs it. */
export type Authorization = {
  to: Address
  value: bigint
  validAfter: bigint
  validBefore: bigint
  nonce: Hex
}

/** EIP-3009 TransferWithAuthorization or ReceiveWithAuthorization, signed by `from`. */
export function signAuthorization(
  from: LocalAccount,
  domain: ReturnType<typeof usdcDomain>,
  kind: 'TransferWithAuthorization' | 'ReceiveWithAuthorization',
  authorization: Authorization,
): Promise<Hex> {
  return from.signTypedData({
    domain,
    types: { [kind]: authorizationFields },
    primaryType: kind,
    message: { from: from.address, ...authorization },
  })
}

/** EIP-3009 CancelAuthorization, signed by `authorizer`. */
export function signCancel(
  authorizer: LocalAccount,
  domain: ReturnType<typeof usdcDomain>,
  nonce: Hex,
): Promise<Hex> {
  return authorizer.signTypedData({
    domain,
    types: {
      CancelAuthorization: [
        { name: 'authorizer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'CancelAuthorization',
    message: { authorizer: authorizer.address, nonce },
  })
}
