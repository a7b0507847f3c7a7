import { quickLinksAccountAbi } from '@quicklinks/contracts/generated/quick-links-account'
import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { quickLinksMultiOwnerAccountAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account'
import { quickLinksMultiOwnerAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import {
  type Address,
  type Chain,
  type Client,
  concatHex,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hashTypedData,
  type LocalAccount,
  type Transport,
  type TypedData,
  type TypedDataDefinition,
} from 'viem'
import {
  entryPoint08Abi,
  getUserOperationTypedData,
  type SmartAccount,
  type SmartAccountImplementation,
  toSmartAccount,
} from 'viem/account-abstraction'
import { readContract } from 'viem/actions'

/** The EntryPoint both account contracts are built for (v0.8). */
export type QuickLinksEntryPoint = { abi: typeof entryPoint08Abi; address: Address; version: '0.8' }

export type QuickLinksSmartAccountImplementation = SmartAccountImplementation<
  typeof entryPoint08Abi,
  '0.8',
  { owner: LocalAccount }
>
export type QuickLinksSmartAccount = SmartAccount<QuickLinksSmartAccountImplementation>

type ReadClient = Client<Transport, Chain, undefined>

export type ToQuickLinksSmartAccountParameters = {
  /** Reads the factory and the EntryPoint nonce; its chain id goes into every signature. */
  client: ReadClient
  /** Signs everything (in the app: the signer's viem account, `toViemAccount()`). */
  owner: LocalAccount
  entryPoint: Address
  /** QuickLinksAccountFactory on this chain (the same address on every chain). */
  factory: Address
  /** Default 0: one account per owner. */
  salt?: bigint
}

export type ToQuickLinksMultiOwnerSmartAccountParameters = Omit<
  ToQuickLinksSmartAccountParameters,
  'factory'
> & {
  /** QuickLinksMultiOwnerAccountFactory on this chain. */
  factory: Address
  /**
   * The initial owners, in order (the address depends on the list and its order). `owner` signs,
   * and must be an owner when it does (one of these, or one added later).
   */
  owners: readonly Address[]
  /**
   * The initial threshold k (default 1; the address depends on it too). Every signature must hold
   * k owners' signatures, concatenated by increasing signer address: with k above 1, `owner` is
   * the multi-owner wallet key (`toMultiOwnerOwnerAccount`), whose signatures the quorum completes.
   */
  threshold?: number
  /**
   * How many owner signatures the account needs now (default `threshold`): after the owners
   * changed it on chain, for the gas estimate's placeholder signature.
   */
  signerCount?: number
}

/**
 * A viem SmartAccount for QuickLinksAccount (SimpleAccount v0.8 with replay-safe ERC-1271):
 * address `factory.getAddress(owner, salt)` (the same on every chain where the factory has one
 * address), deployed by the first user operation through `createAccount(owner, salt)`.
 * User operations are signed over the v0.8 user-operation hash; messages and typed data over the
 * account's `replaySafeHash` (viem's `toSmartAccount` wraps them in ERC-6492 while undeployed).
 * Fails when the factory cannot be read (wrong address, chain down).
 */
export async function toQuickLinksSmartAccount(
  parameters: ToQuickLinksSmartAccountParameters,
): Promise<QuickLinksSmartAccount> {
  const { client, owner, factory } = parameters
  const salt = parameters.salt ?? 0n
  const address = await readContract(client, {
    address: factory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner.address, salt],
  })
  const factoryData = encodeFunctionData({
    abi: quickLinksAccountFactoryAbi,
    functionName: 'createAccount',
    args: [owner.address, salt],
  })
  return buildQuickLinksSmartAccount({ ...parameters, address, factoryData })
}

/**
 * The same for QuickLinksMultiOwnerAccount (k-of-n owners): the address is
 * `factory.getAddress(owners, threshold, salt)`, `owner` signs (its signature must already be the
 * k owners' concatenated ones, as `toMultiOwnerOwnerAccount`'s are). Later owner changes
 * (`updateOwners`) keep the address.
 */
export async function toQuickLinksMultiOwnerSmartAccount(
  parameters: ToQuickLinksMultiOwnerSmartAccountParameters,
): Promise<QuickLinksSmartAccount> {
  const { client, factory, owners } = parameters
  const salt = parameters.salt ?? 0n
  const threshold = BigInt(parameters.threshold ?? 1)
  const address = await readContract(client, {
    address: factory,
    abi: quickLinksMultiOwnerAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owners, threshold, salt],
  })
  const factoryData = encodeFunctionData({
    abi: quickLinksMultiOwnerAccountFactoryAbi,
    functionName: 'createAccount',
    args: [owners, threshold, salt],
  })
  return buildQuickLinksSmartAccount({
    ...parameters,
    address,
    factoryData,
    signerCount: parameters.signerCount ?? Number(threshold),
  })
}

/**
 * The EIP-712 data whose digest is the account's `replaySafeHash(hash)`: what the owner signs so
 * that `hash` is valid for this account only, on this chain only (ReplaySafeSignatures.sol).
 */
export function getReplaySafeTypedData(input: { account: Address; chainId: number; hash: Hex }) {
  return {
    domain: {
      name: 'QuickLinksAccount',
      version: '1',
      chainId: input.chainId,
      verifyingContract: input.account,
    },
    types: { QuickLinksMessage: [{ name: 'hash', type: 'bytes32' }] },
    primaryType: 'QuickLinksMessage',
    message: { hash: input.hash },
  } as const
}

/** A 65-byte ECDSA signature shape that recovers to some address, for gas estimation. */
const stubSignature: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

function buildQuickLinksSmartAccount(input: {
  client: ReadClient
  owner: LocalAccount
  entryPoint: Address
  factory: Address
  address: Address
  factoryData: Hex
  /** How many 65-byte signatures the placeholder holds (default 1). */
  signerCount?: number
}): Promise<QuickLinksSmartAccount> {
  const { client, owner, address, factory, factoryData } = input
  const entryPoint: QuickLinksEntryPoint = { abi: entryPoint08Abi, address: input.entryPoint, version: '0.8' }
  const chainId = client.chain.id
  const signReplaySafe = (hash: Hex) =>
    owner.signTypedData(getReplaySafeTypedData({ account: address, chainId, hash }))

  const implementation: QuickLinksSmartAccountImplementation = {
    client,
    entryPoint,
    extend: { owner },
    getAddress: async () => address,
    getFactoryArgs: async () => ({ factory, factoryData }),
    // One placeholder per required signer, so the estimate pays for every recovery the account makes.
    getStubSignature: async () =>
      concatHex(Array.from({ length: input.signerCount ?? 1 }, () => stubSignature)),

    async encodeCalls(calls) {
      const [only] = calls
      if (calls.length === 1 && only !== undefined) {
        return encodeFunctionData({
          abi: quickLinksAccountAbi,
          functionName: 'execute',
          args: [only.to, only.value ?? 0n, only.data ?? '0x'],
        })
      }
      return encodeFunctionData({
        abi: quickLinksAccountAbi,
        functionName: 'executeBatch',
        args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
      })
    },

    async decodeCalls(data) {
      const decoded = decodeFunctionData({ abi: quickLinksAccountAbi, data })
      if (decoded.functionName === 'execute') {
        const [to, value, callData] = decoded.args
        return [{ to, value, data: callData }]
      }
      if (decoded.functionName === 'executeBatch') {
        return decoded.args[0].map((call) => ({ to: call.target, value: call.value, data: call.data }))
      }
      throw new Error(`Not a call of the account: ${decoded.functionName}`)
    },

    // v0.8: the user-operation hash is an EIP-712 digest; SimpleAccount recovers the owner from it
    // as is, which is exactly the owner's signature of that typed data.
    async signUserOperation(parameters) {
      const { chainId: operationChainId = chainId, ...userOperation } = parameters
      return owner.signTypedData(
        getUserOperationTypedData({
          chainId: operationChainId,
          entryPointAddress: entryPoint.address,
          userOperation: { ...userOperation, sender: address },
        }),
      )
    },

    async signMessage({ message }) {
      return signReplaySafe(hashMessage(message))
    },

    async signTypedData(typedData) {
      return signReplaySafe(hashTypedData(typedData as TypedDataDefinition<TypedData, string>))
    },
  }
  return toSmartAccount(implementation)
}

/**
 * The call a QuickLinksMultiOwnerAccount makes to itself to add, then remove, owners and set its
 * threshold (send it as one of the account's user operations, signed by its current k owners; the
 * contract refuses any other caller, an owner added twice, a removal of a non-owner, and a
 * threshold outside 1 to the owner count). The address stays the same.
 */
export function buildUpdateOwnersCall(input: {
  account: Address
  added: readonly Address[]
  removed: readonly Address[]
  threshold: number
}): { to: Address; data: Hex } {
  return {
    to: input.account,
    data: encodeFunctionData({
      abi: quickLinksMultiOwnerAccountAbi,
      functionName: 'updateOwners',
      args: [input.added, input.removed, BigInt(input.threshold)],
    }),
  }
}
