import {
  type Address,
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseEther,
  toHex,
  zeroAddress,
} from 'viem'
import { type PackedUserOperation, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import {
  generatePrivateKey,
  mnemonicToAccount,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entryPointV08Abi, entryPointV08Bytecode } from '../generated/entry-point-v08.ts'
import { quickLinksAccountAbi } from '../generated/quick-links-account.ts'
import {
  quickLinksAccountFactoryAbi,
  quickLinksAccountFactoryBytecode,
} from '../generated/quick-links-account-factory.ts'
import { simple7702AccountAbi, simple7702AccountBytecode } from '../generated/simple7702-account.ts'
import { sponsorPaymasterAbi, sponsorPaymasterBytecode } from '../generated/sponsor-paymaster.ts'
import { startTestAnvil } from './start-test-anvil.ts'

// The attacks on SponsorPaymaster that its signature alone did not stop: an outsider submitting a
// sponsored operation with their own beneficiary (the gas refund goes to whoever submits), and an
// EIP-7702 account re-delegating after the sponsor signed. EntryPoint v0.8 sits at its canonical
// address (Simple7702Account calls it there), deployed through anvil's CREATE2 deployer.

const deterministicDeployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'
const entryPointSalt: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'
const entryPoint: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
/** anvil's default accounts: the deployer (index 0) sends the 7702 delegations as raw transactions. */
const deployerKey = mnemonicToAccount('test test test test test test test test test test test junk')

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let accountFactory: Address
let paymaster: Address
/** Two deployments of Simple7702Account: the one the sponsor agrees to, and another. */
let sponsoredDelegate: Address
let otherDelegate: Address
/** The allowed bundler (anvil.other), and an outsider with a funded EOA of its own. */
let bundler: Address
let outsider: Address
const sponsorSigner = privateKeyToAccount(generatePrivateKey())
const newKey = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey())

async function send(hash: Hex) {
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

async function deploy(bytecode: Hex, args: { abi: readonly unknown[]; values: readonly unknown[] }) {
  const hash = await anvil.walletClient.deployContract({
    abi: args.abi as never,
    bytecode,
    args: args.values as never,
  })
  const receipt = await send(hash)
  if (!receipt.contractAddress) throw new Error('no contract deployed')
  return getAddress(receipt.contractAddress)
}

beforeAll(async () => {
  anvil = await startTestAnvil()
  const [, second, third] = anvil.accounts
  if (!second || !third) throw new Error('anvil unlocked too few accounts')
  bundler = second
  outsider = third
  await send(
    await anvil.walletClient.sendTransaction({
      to: deterministicDeployer,
      data: concatHex([entryPointSalt, entryPointV08Bytecode]),
    }),
  )
  expect(((await anvil.publicClient.getCode({ address: entryPoint })) ?? '0x').length > 2).toBe(true)
  accountFactory = await deploy(quickLinksAccountFactoryBytecode, {
    abi: quickLinksAccountFactoryAbi,
    values: [entryPoint],
  })
  paymaster = await deploy(sponsorPaymasterBytecode, {
    abi: sponsorPaymasterAbi,
    values: [entryPoint, sponsorSigner.address, anvil.deployer, [bundler]],
  })
  await send(
    await anvil.walletClient.writeContract({
      address: paymaster,
      abi: sponsorPaymasterAbi,
      functionName: 'deposit',
      value: parseEther('10'),
    }),
  )
  sponsoredDelegate = await deploy(simple7702AccountBytecode, { abi: simple7702AccountAbi, values: [] })
  otherDelegate = await deploy(simple7702AccountBytecode, { abi: simple7702AccountAbi, values: [] })
})

afterAll(async () => {
  await anvil?.stop()
})

const readDeposit = () =>
  anvil.publicClient.readContract({
    address: entryPoint,
    abi: entryPointV08Abi,
    functionName: 'balanceOf',
    args: [paymaster],
  })

const inAnHour = async () => Number((await anvil.publicClient.getBlock()).timestamp) + 3600

/** The paymaster fields with the sponsor's signature over `userOperation` for `delegate`. */
async function sponsor(userOperation: UserOperation<'0.8'>, delegate: Address): Promise<void> {
  const validUntil = await inAnHour()
  const validity = encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, 0])
  userOperation.paymaster = paymaster
  userOperation.paymasterVerificationGasLimit = 100_000n
  userOperation.paymasterPostOpGasLimit = 0n
  userOperation.paymasterData = concatHex([validity, `0x${'00'.repeat(65)}`])
  const hash = await anvil.publicClient.readContract({
    address: paymaster,
    abi: sponsorPaymasterAbi,
    functionName: 'getHash',
    args: [toPackedUserOperation(userOperation), delegate, validUntil, 0],
  })
  userOperation.paymasterData = concatHex([
    validity,
    await sponsorSigner.signMessage({ message: { raw: hash } }),
  ])
}

/** The account's signature over the EntryPoint's hash of the operation as it is now (7702: the delegate now). */
async function signAsAccount(
  userOperation: UserOperation<'0.8'>,
  key: PrivateKeyAccount,
): Promise<PackedUserOperation> {
  const hash = await anvil.publicClient.readContract({
    address: entryPoint,
    abi: entryPointV08Abi,
    functionName: 'getUserOpHash',
    args: [toPackedUserOperation(userOperation)],
  })
  userOperation.signature = await key.sign({ hash })
  return toPackedUserOperation(userOperation)
}

/** Submits as `from` would, simulated first (a refusal throws with the EntryPoint's reason). */
async function handleOps(packed: PackedUserOperation, from: Address, beneficiary: Address) {
  const { request } = await anvil.publicClient.simulateContract({
    account: from,
    address: entryPoint,
    abi: entryPointV08Abi,
    functionName: 'handleOps',
    args: [[packed], beneficiary],
  })
  return send(await anvil.walletClient.writeContract(request))
}

const baseOperation = async (sender: Address): Promise<UserOperation<'0.8'>> => {
  const block = await anvil.publicClient.getBlock()
  return {
    sender,
    nonce: 0n,
    callData: encodeFunctionData({
      abi: quickLinksAccountAbi,
      functionName: 'execute',
      args: [newKey().address, 0n, '0x'],
    }),
    callGasLimit: 100_000n,
    verificationGasLimit: 600_000n,
    preVerificationGas: 60_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n,
    signature: '0x',
  }
}

describe('SponsorPaymaster: only the allowed bundler is paid', () => {
  it("reverts a validly sponsored operation that an outsider submits with its own beneficiary (AA33), then pays the bundler's", async () => {
    const owner = newKey()
    const sender = await anvil.publicClient.readContract({
      address: accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    const userOperation: UserOperation<'0.8'> = {
      ...(await baseOperation(sender)),
      factory: accountFactory,
      factoryData: encodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner.address, 0n],
      }),
    }
    await sponsor(userOperation, zeroAddress)
    const packed = await signAsAccount(userOperation, owner)
    const depositBefore = await readDeposit()

    // The outsider's simulation names the paymaster's refusal…
    const refusal = await handleOps(packed, outsider, outsider).then(
      () => 'accepted',
      (error: Error) => error.message,
    )
    expect(refusal).toContain('AA33 reverted')
    expect(refusal).toContain(toHex('SponsorPaymaster: not an allowed bundler').slice(2))
    // …and its transaction, sent anyway, reverts on chain: no refund reaches it, the deposit stays.
    const balanceBefore = await anvil.publicClient.getBalance({ address: outsider })
    const hash = await anvil.walletClient.writeContract({
      account: outsider,
      address: entryPoint,
      abi: entryPointV08Abi,
      functionName: 'handleOps',
      args: [[packed], outsider],
      gas: 2_000_000n,
    })
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
    expect(await anvil.publicClient.getBalance({ address: outsider })).toBeLessThan(balanceBefore)
    expect(await readDeposit()).toBe(depositBefore)
    expect(await anvil.publicClient.getCode({ address: sender })).toBeUndefined()

    // A bundler's simulation without a sender (origin 0, which no transaction has) passes validation.
    await anvil.publicClient.simulateContract({
      address: entryPoint,
      abi: entryPointV08Abi,
      functionName: 'handleOps',
      args: [[packed], bundler],
    })
    // The same operation from the operator's bundler goes through on the deposit.
    const beneficiary = newKey().address
    await handleOps(packed, bundler, beneficiary)
    expect(await readDeposit()).toBeLessThan(depositBefore)
    expect(await anvil.publicClient.getBalance({ address: beneficiary })).toBe(
      depositBefore - (await readDeposit()),
    )
  })

  it('lets only the owner change the bundlers', async () => {
    const newcomer = newKey().address
    await expect(
      anvil.publicClient.simulateContract({
        account: outsider,
        address: paymaster,
        abi: sponsorPaymasterAbi,
        functionName: 'setBundler',
        args: [outsider, true],
      }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/)
    await send(
      await anvil.walletClient.writeContract({
        address: paymaster,
        abi: sponsorPaymasterAbi,
        functionName: 'setBundler',
        args: [newcomer, true],
      }),
    )
    const isBundler = (who: Address) =>
      anvil.publicClient.readContract({
        address: paymaster,
        abi: sponsorPaymasterAbi,
        functionName: 'isBundler',
        args: [who],
      })
    expect(await isBundler(newcomer)).toBe(true)
    expect(await isBundler(outsider)).toBe(false)
  })
})

describe('SponsorPaymaster: an EIP-7702 sender is bound to the delegate the sponsor signed for', () => {
  /** Sends the EOA's authorization to `delegate` in a transaction of anvil's deployer. */
  async function delegate(eoa: PrivateKeyAccount, to: Address): Promise<void> {
    const authorization = await eoa.signAuthorization({
      contractAddress: to,
      chainId: anvil.publicClient.chain.id,
      nonce: await anvil.publicClient.getTransactionCount({ address: eoa.address }),
    })
    const hash = await anvil.publicClient.sendRawTransaction({
      serializedTransaction: await deployerKey.signTransaction({
        type: 'eip7702',
        chainId: anvil.publicClient.chain.id,
        nonce: await anvil.publicClient.getTransactionCount({ address: deployerKey.address }),
        to: eoa.address,
        gas: 100_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        authorizationList: [authorization],
      }),
    })
    await send(hash)
    expect(
      await anvil.publicClient.readContract({
        address: paymaster,
        abi: sponsorPaymasterAbi,
        functionName: 'senderDelegate',
        args: [eoa.address],
      }),
    ).toBe(to)
  }

  const delegatedOperation = async (eoa: PrivateKeyAccount): Promise<UserOperation<'0.8'>> => ({
    ...(await baseOperation(eoa.address)),
    factory: '0x7702',
    factoryData: '0x',
  })

  it('pays for the operation while the EOA delegates where the sponsor signed for', async () => {
    const eoa = newKey()
    await delegate(eoa, sponsoredDelegate)
    const userOperation = await delegatedOperation(eoa)
    await sponsor(userOperation, sponsoredDelegate)
    await handleOps(await signAsAccount(userOperation, eoa), bundler, newKey().address)
    expect(await anvil.publicClient.getBalance({ address: eoa.address })).toBe(0n)
  })

  it('refuses it (AA34) once the EOA re-delegated to another delegate after the sponsor signed', async () => {
    const eoa = newKey()
    await delegate(eoa, sponsoredDelegate)
    const userOperation = await delegatedOperation(eoa)
    await sponsor(userOperation, sponsoredDelegate)
    // The user re-delegates and signs the operation again (its EntryPoint hash names the new delegate).
    await delegate(eoa, otherDelegate)
    const packed = await signAsAccount(userOperation, eoa)
    const depositBefore = await readDeposit()
    await expect(handleOps(packed, bundler, newKey().address)).rejects.toThrow('AA34 signature error')
    expect(await readDeposit()).toBe(depositBefore)
    // A smart account's code is no delegation: its sponsorship names no delegate.
    expect(
      await anvil.publicClient.readContract({
        address: paymaster,
        abi: sponsorPaymasterAbi,
        functionName: 'senderDelegate',
        args: [accountFactory],
      }),
    ).toBe(zeroAddress)
  })
})
