import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { quickLinksMultiOwnerAccountAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account'
import { quickLinksMultiOwnerAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
  sliceHex,
} from 'viem'
import type { SmartAccountChain } from './list-smart-account-chains.ts'
import { getFactoryAddress, isEip7702Operation, type RpcUserOperation } from './rpc-user-operation.ts'

/** ERC-1967's implementation slot: where a proxy keeps its implementation's address. */
const implementationSlot: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'

/**
 * Which of the user's accounts a user operation's sender is: 'smart-account' (their
 * QuickLinksAccount, `accountFactory.getAddress(user, 0)`), 'eip7702' (their own EOA), or
 * 'multi-owner' (a QuickLinksMultiOwnerAccount they own).
 */
export type OwnAccountKind = 'smart-account' | 'eip7702' | 'multi-owner'

/**
 * Finds whether `operation.sender` belongs to `userAddress` on `chain`, and as which kind: the
 * signed-in address itself (its EOA under EIP-7702, or a smart account of ours that signed in as
 * itself); the user's QuickLinksAccount at salt 0 (asked of the factory); a
 * deployed QuickLinksMultiOwnerAccount (our implementation behind the proxy) whose `isOwner` says
 * yes; or an undeployed one whose `factory` is our multi-owner factory and whose `createAccount`
 * owners include the user and land at `sender`. Resolves undefined for any other sender.
 * Rejects when the chain's RPC fails.
 */
export async function findOwnAccountKind(input: {
  client: PublicClient
  chain: SmartAccountChain
  userAddress: Address
  operation: RpcUserOperation
}): Promise<OwnAccountKind | undefined> {
  const { client, chain, userAddress, operation } = input
  const sender = operation.sender
  if (isAddressEqual(sender, userAddress)) return classifySignedInAddress(client, chain, operation)
  if (isEip7702Operation(operation)) return undefined

  const smartAccount = await client.readContract({
    address: chain.accountFactory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'getAddress',
    args: [userAddress, 0n],
  })
  if (isAddressEqual(sender, smartAccount)) return 'smart-account'

  const factory = getFactoryAddress(operation)
  if (factory !== undefined) {
    if (!isAddressEqual(factory, chain.multiOwnerAccountFactory)) return undefined
    return (await isUndeployedMultiOwnerAccountOf(client, chain, operation, userAddress))
      ? 'multi-owner'
      : undefined
  }
  return (await isDeployedMultiOwnerAccountOf(client, chain, sender, userAddress)) ? 'multi-owner' : undefined
}

/**
 * The sender is the signed-in address itself: an EOA (EIP-7702), or a smart account that signed in
 * as itself (SIWE with ERC-1271 or ERC-6492), which is ours when our factory deploys it or our
 * implementation sits behind its proxy.
 */
async function classifySignedInAddress(
  client: PublicClient,
  chain: SmartAccountChain,
  operation: RpcUserOperation,
): Promise<OwnAccountKind | undefined> {
  if (isEip7702Operation(operation)) return 'eip7702'
  const factory = getFactoryAddress(operation)
  if (factory !== undefined) {
    if (isAddressEqual(factory, chain.accountFactory)) return 'smart-account'
    return isAddressEqual(factory, chain.multiOwnerAccountFactory) ? 'multi-owner' : undefined
  }
  const code = await client.getCode({ address: operation.sender })
  if (code === undefined || code === '0x' || code.toLowerCase().startsWith('0xef0100')) return 'eip7702'
  const [implementation, singleOwner, multiOwner] = await Promise.all([
    readImplementation(client, operation.sender),
    client.readContract({
      address: chain.accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'accountImplementation',
    }),
    client.readContract({
      address: chain.multiOwnerAccountFactory,
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      functionName: 'accountImplementation',
    }),
  ])
  if (implementation === undefined) return undefined
  if (isAddressEqual(implementation, singleOwner)) return 'smart-account'
  return isAddressEqual(implementation, multiOwner) ? 'multi-owner' : undefined
}

/** The ERC-1967 implementation behind a proxy, or undefined when the slot is empty. */
async function readImplementation(client: PublicClient, address: Address): Promise<Address | undefined> {
  const slot = await client.getStorageAt({ address, slot: implementationSlot })
  if (slot === undefined || slot === '0x' || BigInt(slot) === 0n) return undefined
  return getAddress(sliceHex(slot, 12))
}

async function isUndeployedMultiOwnerAccountOf(
  client: PublicClient,
  chain: SmartAccountChain,
  operation: RpcUserOperation,
  userAddress: Address,
): Promise<boolean> {
  let owners: readonly Address[]
  let threshold: bigint
  let salt: bigint
  try {
    const decoded = decodeFunctionData({
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      data: (operation.factoryData ?? '0x') as Hex,
    })
    if (decoded.functionName !== 'createAccount') return false
    ;[owners, threshold, salt] = decoded.args
  } catch {
    return false
  }
  if (!owners.some((owner) => isAddressEqual(owner, userAddress))) return false
  const predicted = await client.readContract({
    address: chain.multiOwnerAccountFactory,
    abi: quickLinksMultiOwnerAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owners, threshold, salt],
  })
  return isAddressEqual(predicted, operation.sender)
}

async function isDeployedMultiOwnerAccountOf(
  client: PublicClient,
  chain: SmartAccountChain,
  sender: Address,
  userAddress: Address,
): Promise<boolean> {
  // A contract that merely answers isOwner(anyone) = true is not ours: the proxy must point at our
  // factory's implementation.
  const [behindProxy, implementation] = await Promise.all([
    readImplementation(client, sender),
    client.readContract({
      address: chain.multiOwnerAccountFactory,
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      functionName: 'accountImplementation',
    }),
  ])
  if (behindProxy === undefined || !isAddressEqual(behindProxy, implementation)) return false
  return client.readContract({
    address: sender,
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'isOwner',
    args: [userAddress],
  })
}
