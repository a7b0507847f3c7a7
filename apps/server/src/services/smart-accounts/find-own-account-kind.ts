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
 * user's EOA itself (EIP-7702); the user's QuickLinksAccount at salt 0 (asked of the factory); a
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
  if (isAddressEqual(sender, userAddress)) return 'eip7702'
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

async function isUndeployedMultiOwnerAccountOf(
  client: PublicClient,
  chain: SmartAccountChain,
  operation: RpcUserOperation,
  userAddress: Address,
): Promise<boolean> {
  let owners: readonly Address[]
  let salt: bigint
  try {
    const decoded = decodeFunctionData({
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      data: (operation.factoryData ?? '0x') as Hex,
    })
    if (decoded.functionName !== 'createAccount') return false
    ;[owners, salt] = decoded.args
  } catch {
    return false
  }
  if (!owners.some((owner) => isAddressEqual(owner, userAddress))) return false
  const predicted = await client.readContract({
    address: chain.multiOwnerAccountFactory,
    abi: quickLinksMultiOwnerAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owners, salt],
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
  const [slot, implementation] = await Promise.all([
    client.getStorageAt({ address: sender, slot: implementationSlot }),
    client.readContract({
      address: chain.multiOwnerAccountFactory,
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      functionName: 'accountImplementation',
    }),
  ])
  if (
    slot === undefined ||
    slot === '0x' ||
    !isAddressEqual(getAddress(sliceHex(slot, 12)), implementation)
  ) {
    return false
  }
  return client.readContract({
    address: sender,
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'isOwner',
    args: [userAddress],
  })
}
