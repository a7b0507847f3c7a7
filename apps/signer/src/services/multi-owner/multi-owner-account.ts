import { quickLinksMultiOwnerAccountAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account'
import { quickLinksMultiOwnerAccountFactoryBytecode } from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import { entryPointV08Address } from '@quicklinks/core/api/smart-accounts'
import {
  type Address,
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  numberToHex,
  zeroHash,
} from 'viem'

/** The CREATE2 deployer every devnet (and most chains) has; the factory's address follows from it. */
const deterministicDeployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/**
 * QuickLinksMultiOwnerAccountFactory's address: the deterministic deployer's CREATE2 address of its
 * init code (for EntryPoint v0.8) with salt 0, where packages/devnet deploys it on every chain.
 */
export const multiOwnerAccountFactoryAddress: Address = getContractAddress({
  opcode: 'CREATE2',
  from: deterministicDeployer,
  salt: zeroHash,
  bytecode: concatHex([
    quickLinksMultiOwnerAccountFactoryBytecode,
    encodeAbiParameters([{ type: 'address' }], [entryPointV08Address]),
  ]),
})

/** The account implementation the factory's constructor deploys (its first CREATE, nonce 1). */
const accountImplementation = getContractAddress({ from: multiOwnerAccountFactoryAddress, nonce: 1n })

/**
 * ERC1967Proxy's creation code, which the factory embeds (`type(ERC1967Proxy).creationCode`): it
 * starts by reading its constructor arguments past its own length (`PUSH2 len CODESIZE SUB`).
 */
const proxyCreationCode: Hex = (() => {
  const match = /608060405260405161([0-9a-f]{4})38038061\1/.exec(quickLinksMultiOwnerAccountFactoryBytecode)
  if (match?.[1] === undefined || match.index % 2 !== 0) {
    throw new Error('QuickLinksMultiOwnerAccountFactory no longer embeds the ERC1967Proxy creation code')
  }
  const length = Number.parseInt(match[1], 16) * 2
  return `0x${quickLinksMultiOwnerAccountFactoryBytecode.slice(match.index, match.index + length)}`
})()

/**
 * The counterfactual address of the QuickLinksMultiOwnerAccount whose initial owners are `owners`
 * (in this order) with the initial `threshold` and `salt`: what the factory's
 * `getAddress(owners, threshold, salt)` answers, computed here without a chain (the same on every
 * chain). Pure.
 */
export function getMultiOwnerAccountAddress(
  owners: readonly Address[],
  threshold: number,
  salt = 0n,
): Address {
  const initializer = encodeFunctionData({
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'initialize',
    args: [owners, BigInt(threshold)],
  })
  return getContractAddress({
    opcode: 'CREATE2',
    from: multiOwnerAccountFactoryAddress,
    salt: numberToHex(salt, { size: 32 }),
    bytecode: concatHex([
      proxyCreationCode,
      encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [accountImplementation, initializer]),
    ]),
  })
}

/**
 * The user operation call data that has the account change its own owners and threshold:
 * `execute(account, 0, updateOwners(added, removed, threshold))` (only the account may call
 * `updateOwners`, so this runs only as a user operation its current k owners signed). Pure.
 */
export function encodeOwnerUpdate(
  account: Address,
  change: { added: readonly Address[]; removed: readonly Address[]; threshold: number },
): Hex {
  return encodeFunctionData({
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'execute',
    args: [
      getAddress(account),
      0n,
      encodeFunctionData({
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'updateOwners',
        args: [change.added, change.removed, BigInt(change.threshold)],
      }),
    ],
  })
}
