// QuickLinksMultiOwnerAccount on a real anvil with EntryPoint v0.8: k-of-n owner signatures for
// user operations and ERC-1271, no single-owner path to the account's funds or its owner list.
// One contract's whole security check on one anvil, kept together (hence over 300 lines).
import {
  type Address,
  concatHex,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
} from 'viem'
import { getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entryPointV08Abi, entryPointV08Bytecode } from '../generated/entry-point-v08.ts'
import { quickLinksMultiOwnerAccountAbi } from '../generated/quick-links-multi-owner-account.ts'
import {
  quickLinksMultiOwnerAccountFactoryAbi,
  quickLinksMultiOwnerAccountFactoryBytecode,
} from '../generated/quick-links-multi-owner-account-factory.ts'
import { startTestAnvil } from './start-test-anvil.ts'

const validSignature = '0x1626ba7e'
const invalidSignature = '0xffffffff'

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let entryPoint: Address
let factory: Address
let chainId: number

const newKey = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey())

async function send(hash: Hex) {
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

async function deploy(bytecode: Hex, abi: readonly unknown[], args: readonly unknown[]): Promise<Address> {
  const hash = await anvil.walletClient.deployContract({ abi, bytecode, args })
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress) throw new Error('no contract deployed')
  return getAddress(receipt.contractAddress)
}

beforeAll(async () => {
  anvil = await startTestAnvil()
  chainId = await anvil.publicClient.getChainId()
  entryPoint = await deploy(entryPointV08Bytecode, entryPointV08Abi, [])
  factory = await deploy(quickLinksMultiOwnerAccountFactoryBytecode, quickLinksMultiOwnerAccountFactoryAbi, [
    entryPoint,
  ])
})

afterAll(async () => {
  await anvil?.stop()
})

const getAccountAddress = (owners: Address[], threshold: bigint, salt: bigint) =>
  anvil.publicClient.readContract({
    address: factory,
    abi: quickLinksMultiOwnerAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owners, threshold, salt],
  })

/** Deploys a funded account of `owners` with `threshold` (1 ETH), as anyone may. */
async function createAccount(owners: PrivateKeyAccount[], threshold: bigint, salt = 0n): Promise<Address> {
  const addresses = owners.map((owner) => owner.address)
  await send(
    await anvil.walletClient.writeContract({
      address: factory,
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      functionName: 'createAccount',
      args: [addresses, threshold, salt],
    }),
  )
  const account = await getAccountAddress(addresses, threshold, salt)
  await anvil.testClient.setBalance({ address: account, value: parseEther('1') })
  return account
}

/** The account's signature format: each signer's 65 bytes over `hash`, by increasing signer address. */
async function signTogether(hash: Hex, signers: PrivateKeyAccount[], options: { sort?: boolean } = {}) {
  const ordered =
    options.sort === false
      ? signers
      : [...signers].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
  return concatHex(await Promise.all(ordered.map((signer) => signer.sign({ hash }))))
}

/** A user operation of `account` running `callData`, signed by `sign` over its hash. */
async function buildOperation(account: Address, callData: Hex, sign: (hash: Hex) => Promise<Hex>) {
  const nonce = await anvil.publicClient.readContract({
    address: entryPoint,
    abi: entryPointV08Abi,
    functionName: 'getNonce',
    args: [account, 0n],
  })
  const block = await anvil.publicClient.getBlock()
  const userOperation: UserOperation<'0.8'> = {
    sender: account,
    nonce,
    callData,
    callGasLimit: 300_000n,
    verificationGasLimit: 600_000n,
    preVerificationGas: 60_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n,
    signature: '0x',
  }
  const hash = getUserOperationHash({
    chainId,
    entryPointAddress: entryPoint,
    entryPointVersion: '0.8',
    userOperation,
  })
  return { packed: toPackedUserOperation({ ...userOperation, signature: await sign(hash) }), hash }
}

/** Submits one operation as a bundler would: simulated first, so a refusal throws the EntryPoint's reason. */
async function handleOp(packed: ReturnType<typeof toPackedUserOperation>) {
  const { request } = await anvil.publicClient.simulateContract({
    account: anvil.other,
    address: entryPoint,
    abi: entryPointV08Abi,
    functionName: 'handleOps',
    args: [[packed], anvil.other],
  })
  const receipt = await send(await anvil.walletClient.writeContract(request))
  const [event] = parseEventLogs({
    abi: entryPointV08Abi,
    logs: receipt.logs,
    eventName: 'UserOperationEvent',
  })
  return event?.args
}

const transfer = (to: Address, value: bigint): Hex =>
  encodeFunctionData({
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'execute',
    args: [to, value, '0x'],
  })

const readOwners = (account: Address) =>
  anvil.publicClient.readContract({
    address: account,
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'owners',
  })
const readThreshold = (account: Address) =>
  anvil.publicClient.readContract({
    address: account,
    abi: quickLinksMultiOwnerAccountAbi,
    functionName: 'threshold',
  })

describe('QuickLinksMultiOwnerAccount: k of n owners', () => {
  it('stores its owners and threshold; the address depends on both, and the threshold is 1 to n', async () => {
    const [first, second] = [newKey(), newKey()]
    const account = await createAccount([first, second], 2n, 1n)
    expect(await readOwners(account)).toEqual([first.address, second.address])
    expect(await readThreshold(account)).toBe(2n)
    expect(await getAccountAddress([first.address, second.address], 1n, 1n)).not.toBe(account)

    for (const threshold of [0n, 3n]) {
      await expect(
        anvil.publicClient.simulateContract({
          account: anvil.deployer,
          address: factory,
          abi: quickLinksMultiOwnerAccountFactoryAbi,
          functionName: 'createAccount',
          args: [[first.address, second.address], threshold, 1n],
        }),
      ).rejects.toThrow('invalid threshold')
    }
    await expect(
      anvil.publicClient.simulateContract({
        account: anvil.deployer,
        address: factory,
        abi: quickLinksMultiOwnerAccountFactoryAbi,
        functionName: 'createAccount',
        args: [[], 1n, 9n],
      }),
    ).rejects.toThrow('no owners left')
  })

  it('lets no single owner move funds by calling execute, executeBatch, updateOwners or an upgrade', async () => {
    const [owner, second, third] = [newKey(), newKey(), newKey()]
    for (const key of [owner, second, third])
      await anvil.testClient.setBalance({ address: key.address, value: parseEther('1') })
    const account = await createAccount([owner, second, third], 2n)
    const thief = newKey().address

    await expect(
      anvil.walletClient.writeContract({
        account: owner,
        address: account,
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'execute',
        args: [thief, parseEther('1'), '0x'],
      }),
    ).rejects.toThrow('only the EntryPoint or the account')
    await expect(
      anvil.walletClient.writeContract({
        account: owner,
        address: account,
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'executeBatch',
        args: [[{ target: thief, value: parseEther('1'), data: '0x' }]],
      }),
    ).rejects.toThrow('only the EntryPoint or the account')
    await expect(
      anvil.walletClient.writeContract({
        account: owner,
        address: account,
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'updateOwners',
        args: [[], [second.address, third.address], 1n],
      }),
    ).rejects.toThrow('only the account')
    await expect(
      anvil.walletClient.writeContract({
        account: owner,
        address: account,
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'upgradeToAndCall',
        args: [thief, '0x'],
      }),
    ).rejects.toThrow('only the account')

    expect(await anvil.publicClient.getBalance({ address: thief })).toBe(0n)
    expect(await anvil.publicClient.getBalance({ address: account })).toBe(parseEther('1'))
    expect(await readOwners(account)).toEqual([owner.address, second.address, third.address])
  })

  it('refuses a user operation with fewer than k distinct owner signatures, and runs one with k', async () => {
    const [owner, second, third] = [newKey(), newKey(), newKey()]
    const account = await createAccount([owner, second, third], 2n)
    const receiver = newKey().address
    const callData = transfer(receiver, parseEther('0.5'))
    const stranger = newKey()

    const refusedSignatures: ((hash: Hex) => Promise<Hex>)[] = [
      // One owner alone.
      (hash) => owner.sign({ hash }),
      // The same owner twice.
      async (hash) => concatHex([await owner.sign({ hash }), await owner.sign({ hash })]),
      // An owner and a stranger.
      (hash) => signTogether(hash, [owner, stranger]),
      // Two owners out of order.
      async (hash) =>
        concatHex(
          await Promise.all(
            [owner, second]
              .sort((a, b) => (BigInt(a.address) > BigInt(b.address) ? -1 : 1))
              .map((key) => key.sign({ hash })),
          ),
        ),
      // Two owners, one signature cut short.
      async (hash) => (await signTogether(hash, [owner, second])).slice(0, -2) as Hex,
      // Nothing.
      async () => '0x',
    ]
    for (const sign of refusedSignatures) {
      const { packed } = await buildOperation(account, callData, sign)
      await expect(handleOp(packed)).rejects.toThrow('AA24 signature error')
    }
    expect(await anvil.publicClient.getBalance({ address: receiver })).toBe(0n)

    // Two of the three, in the account's order: the funds move.
    const { packed, hash } = await buildOperation(account, callData, (digest) =>
      signTogether(digest, [third, owner]),
    )
    expect(await handleOp(packed)).toMatchObject({ userOpHash: hash, success: true })
    expect(await anvil.publicClient.getBalance({ address: receiver })).toBe(parseEther('0.5'))
    // All three also pass (at least k).
    const again = await buildOperation(account, transfer(receiver, 1n), (digest) =>
      signTogether(digest, [owner, second, third]),
    )
    expect(await handleOp(again.packed)).toMatchObject({ success: true })
  })

  it('changes its owners and threshold only through a k-of-n user operation', async () => {
    const [owner, second, third, newcomer] = [newKey(), newKey(), newKey(), newKey()]
    const account = await createAccount([owner, second, third], 2n)
    const updateOwners = (added: Address[], removed: Address[], threshold: bigint) =>
      encodeFunctionData({
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'execute',
        args: [
          account,
          0n,
          encodeFunctionData({
            abi: quickLinksMultiOwnerAccountAbi,
            functionName: 'updateOwners',
            args: [added, removed, threshold],
          }),
        ],
      })

    // One owner cannot make itself the only one.
    const alone = await buildOperation(
      account,
      updateOwners([], [second.address, third.address], 1n),
      (hash) => owner.sign({ hash }),
    )
    await expect(handleOp(alone.packed)).rejects.toThrow('AA24 signature error')

    // Two of three: the newcomer replaces the third owner and the threshold becomes 3.
    const change = await buildOperation(
      account,
      updateOwners([newcomer.address], [third.address], 3n),
      (hash) => signTogether(hash, [owner, second]),
    )
    expect(await handleOp(change.packed)).toMatchObject({ success: true })
    expect(await readOwners(account)).toEqual([owner.address, second.address, newcomer.address])
    expect(await readThreshold(account)).toBe(3n)

    // Now two are not enough, the removed owner counts for nothing, and three pass.
    const receiver = newKey().address
    const byTwo = await buildOperation(account, transfer(receiver, 1n), (hash) =>
      signTogether(hash, [owner, second]),
    )
    await expect(handleOp(byTwo.packed)).rejects.toThrow('AA24 signature error')
    const withRemoved = await buildOperation(account, transfer(receiver, 1n), (hash) =>
      signTogether(hash, [owner, second, third]),
    )
    await expect(handleOp(withRemoved.packed)).rejects.toThrow('AA24 signature error')
    const byThree = await buildOperation(account, transfer(receiver, 1n), (hash) =>
      signTogether(hash, [owner, second, newcomer]),
    )
    expect(await handleOp(byThree.packed)).toMatchObject({ success: true })
    expect(await anvil.publicClient.getBalance({ address: receiver })).toBe(1n)

    // A threshold above the owners is refused inside the operation (the call reverts, nothing changes).
    const tooHigh = await buildOperation(account, updateOwners([], [], 4n), (hash) =>
      signTogether(hash, [owner, second, newcomer]),
    )
    expect(await handleOp(tooHigh.packed)).toMatchObject({ success: false })
    expect(await readThreshold(account)).toBe(3n)
  })

  it('accepts an ERC-1271 signature of k owners over its replay-safe hash, and nothing less', async () => {
    const [owner, second, third] = [newKey(), newKey(), newKey()]
    const account = await createAccount([owner, second, third], 2n)
    const otherAccount = await createAccount([owner, second, third], 2n, 5n)
    const hash = keccak256(toHex('Sign in to Quick Links'))
    const replaySafeHash = await anvil.publicClient.readContract({
      address: account,
      abi: quickLinksMultiOwnerAccountAbi,
      functionName: 'replaySafeHash',
      args: [hash],
    })
    const isValid = (address: Address, signature: Hex) =>
      anvil.publicClient.readContract({
        address,
        abi: quickLinksMultiOwnerAccountAbi,
        functionName: 'isValidSignature',
        args: [hash, signature],
      })

    const byTwo = await signTogether(replaySafeHash, [owner, second])
    expect(await isValid(account, byTwo)).toBe(validSignature)
    expect(await isValid(account, await owner.sign({ hash: replaySafeHash }))).toBe(invalidSignature)
    expect(
      await isValid(
        account,
        concatHex([await owner.sign({ hash: replaySafeHash }), await owner.sign({ hash: replaySafeHash })]),
      ),
    ).toBe(invalidSignature)
    expect(await isValid(account, await signTogether(replaySafeHash, [owner, newKey()]))).toBe(
      invalidSignature,
    )
    // Over the bare hash, or replayed to another account of the same owners.
    expect(await isValid(account, await signTogether(hash, [owner, second]))).toBe(invalidSignature)
    expect(await isValid(otherAccount, byTwo)).toBe(invalidSignature)
    expect(await isValid(account, '0x1234')).toBe(invalidSignature)
  })
})
