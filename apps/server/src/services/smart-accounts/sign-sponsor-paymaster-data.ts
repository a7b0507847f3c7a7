import {
  type Address,
  concatHex,
  encodeAbiParameters,
  type Hex,
  hexToBigInt,
  keccak256,
  type LocalAccount,
  sliceHex,
} from 'viem'
import { toPackedUserOperation } from 'viem/account-abstraction'
import { type RpcUserOperation, toViemUserOperation } from './rpc-user-operation.ts'

/** What SponsorPaymaster reads after its address and gas limits: the window it checks the signature in. */
export type SponsorWindow = { validUntil: number; validAfter: number }

export type SponsorPaymasterInput = {
  chainId: number
  paymaster: Address
  operation: RpcUserOperation
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  /**
   * The sender's EIP-7702 delegate when the operation runs (Simple7702Account for an EOA;
   * zeroAddress for a smart account): SponsorPaymaster reads it from the sender's code.
   */
  delegate: Address
} & SponsorWindow

/**
 * SponsorPaymaster's `getHash(userOp, delegate, validUntil, validAfter)`, computed off chain over the
 * operation packed as the bundler packs it (viem's toPackedUserOperation, which Alto uses too).
 * Pure.
 */
export function getSponsorPaymasterHash(input: SponsorPaymasterInput): Hex {
  const packed = toPackedUserOperation(
    toViemUserOperation(input.operation, {
      paymaster: input.paymaster,
      paymasterVerificationGasLimit: input.paymasterVerificationGasLimit,
      paymasterPostOpGasLimit: input.paymasterPostOpGasLimit,
      paymasterData: '0x',
    }),
  )
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        packed.sender,
        packed.nonce,
        keccak256(packed.initCode),
        keccak256(packed.callData),
        packed.accountGasLimits,
        // paymasterAndData[20:52]: the paymaster's validation and post-op gas limits, as one word.
        hexToBigInt(sliceHex(packed.paymasterAndData, 20, 52)),
        packed.preVerificationGas,
        packed.gasFees,
        input.delegate,
        BigInt(input.chainId),
        input.paymaster,
        input.validUntil,
        input.validAfter,
      ],
    ),
  )
}

/** `abi.encode(uint48 validUntil, uint48 validAfter)`, the head of SponsorPaymaster's paymasterData. */
export function encodeSponsorWindow(window: SponsorWindow): Hex {
  return encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [window.validUntil, window.validAfter])
}

/**
 * The paymasterData SponsorPaymaster accepts for `input.operation`: the window, then `signer`'s
 * EIP-191 signature over `getSponsorPaymasterHash(input)` (what the contract checks with
 * toEthSignedMessageHash). Rejects only if the signer does.
 */
export async function signSponsorPaymasterData(
  signer: LocalAccount,
  input: SponsorPaymasterInput,
): Promise<Hex> {
  const signature = await signer.signMessage({ message: { raw: getSponsorPaymasterHash(input) } })
  return concatHex([encodeSponsorWindow(input), signature])
}
