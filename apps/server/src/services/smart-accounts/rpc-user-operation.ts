import { type Address, getAddress, type Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { z } from 'zod'

const hexSchema = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex bytes')
const quantitySchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed hex quantity')
  .transform((value) => BigInt(value))
const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 20-byte hex address')
  .transform((value) => getAddress(value))

/**
 * An ERC-4337 v0.8 user operation as viem sends it over JSON-RPC (unpacked fields, hex quantities;
 * `factory` may be `0x7702` for an EIP-7702 account). Gas fields a client has not estimated yet
 * (ERC-7677 stub requests) read as 0.
 */
export const rpcUserOperationSchema = z.object({
  sender: addressSchema,
  nonce: quantitySchema,
  factory: z
    .string()
    .regex(/^0x([0-9a-fA-F]{40}|7702)$/, 'must be an address or 0x7702')
    .optional()
    .nullable(),
  factoryData: hexSchema.optional().nullable(),
  callData: hexSchema,
  callGasLimit: quantitySchema.default(0n),
  verificationGasLimit: quantitySchema.default(0n),
  preVerificationGas: quantitySchema.default(0n),
  maxFeePerGas: quantitySchema.default(0n),
  maxPriorityFeePerGas: quantitySchema.default(0n),
  /** The client's stub signature in ERC-7677 requests (what the sponsor estimates the gas with). */
  signature: hexSchema.optional().nullable(),
  eip7702Auth: z
    .object({
      address: addressSchema,
      chainId: quantitySchema,
      nonce: quantitySchema,
      r: quantitySchema,
      s: quantitySchema,
      yParity: quantitySchema,
    })
    .optional()
    .nullable(),
})

/** A parsed RPC user operation. */
export type RpcUserOperation = z.infer<typeof rpcUserOperationSchema>

/** The marker `factory` of an EIP-7702 account's user operation, as Alto and viem write it. */
export const eip7702FactoryMarker = '0x7702'

/** Whether the operation is sent by an EIP-7702 delegated EOA (factory marker or an authorization). */
export function isEip7702Operation(operation: RpcUserOperation): boolean {
  return (
    operation.eip7702Auth != null ||
    operation.factory?.toLowerCase() === eip7702FactoryMarker ||
    operation.factory?.toLowerCase() === '0x7702000000000000000000000000000000000000'
  )
}

/** The deploying factory of an undeployed smart account, or undefined (deployed, or EIP-7702). */
export function getFactoryAddress(operation: RpcUserOperation): Address | undefined {
  if (operation.factory == null || isEip7702Operation(operation)) return undefined
  return getAddress(operation.factory)
}

/**
 * The operation as viem's `UserOperation` v0.8, with the paymaster fields given, so viem's
 * `toPackedUserOperation` packs it exactly as the bundler does (Alto packs with the same function).
 */
export function toViemUserOperation(
  operation: RpcUserOperation,
  paymaster: {
    paymaster: Address
    paymasterVerificationGasLimit: bigint
    paymasterPostOpGasLimit: bigint
    paymasterData: Hex
  },
): UserOperation<'0.8'> {
  return {
    sender: operation.sender,
    nonce: operation.nonce,
    ...(operation.factory == null ? {} : { factory: operation.factory as Address }),
    ...(operation.factoryData == null ? {} : { factoryData: operation.factoryData as Hex }),
    callData: operation.callData as Hex,
    callGasLimit: operation.callGasLimit,
    verificationGasLimit: operation.verificationGasLimit,
    preVerificationGas: operation.preVerificationGas,
    maxFeePerGas: operation.maxFeePerGas,
    maxPriorityFeePerGas: operation.maxPriorityFeePerGas,
    signature: '0x',
    ...paymaster,
  }
}
