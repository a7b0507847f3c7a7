import {
  type Abi,
  type Address,
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  hashTypedData,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem'
import {
  getUserOperationHash,
  type PackedUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entryPointV08Abi, entryPointV08Bytecode } from '../generated/entry-point-v08.ts'
import { quickLinksAccountAbi } from '../generated/quick-links-account.ts'
import {
  quickLinksAccountFactoryAbi,
  quickLinksAccountFactoryBytecode,
} from '../generated/quick-links-account-factory.ts'
import { sponsorPaymasterAbi, sponsorPaymasterBytecode } from '../generated/sponsor-paymaster.ts'
import { startTestAnvil } from './start-test-anvil.ts'

/** ERC-1271's answers. */
const validSignature = '0x1626ba7e'
const invalidSignature = '0xffffffff'

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let entryPoint: Address
let accountFactory: Address
let paymaster: Address
/** The sponsor service's key, as the paymaster knows it. */
const sponsorSigner = privateKeyToAccount(generatePrivateKey())

const newKey = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey())

async function deploy(abi: Abi, bytecode: Hex, args: readonly unknown[]): Promise<Address> {
  const hash = await anvil.walletClient.deployContract({ abi, bytecode, args })
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress) throw new Error('no contract deployed')
  return getAddress(receipt.contractAddress)
}

async function send(hash: Hex) {
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

async function createAccount(owner: Address, salt: bigint, from?: Address): Promise<Address> {
  await send(
    await anvil.walletClient.writeContract({
      account: from ?? anvil.deployer,
      address: accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner, salt],
    }),
  )
  return anvil.publicClient.readContract({
    address: accountFactory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner, salt],
  })
}

function isValidSignature(account: Address, hash: Hex, signature: Hex): Promise<Hex> {
  return anvil.publicClient.readContract({
    address: account,
    abi: quickLinksAccountAbi,
    functionName: 'isValidSignature',
    args: [hash, signature],
  })
}

beforeAll(async () => {
  anvil = await startTestAnvil()
  entryPoint = await deploy(entryPointV08Abi, entryPointV08Bytecode, [])
  accountFactory = await deploy(quickLinksAccountFactoryAbi, quickLinksAccountFactoryBytecode, [entryPoint])
  // The bundler is anvil.other: only its transactions may carry sponsored operations.
  paymaster = await deploy(sponsorPaymasterAbi, sponsorPaymasterBytecode, [
    entryPoint,
    sponsorSigner.address,
    anvil.deployer,
    [anvil.other],
  ])
  await send(
    await anvil.walletClient.writeContract({
      address: paymaster,
      abi: sponsorPaymasterAbi,
      functionName: 'deposit',
      value: parseEther('10'),
    }),
  )
})

afterAll(async () => {
  await anvil?.stop()
})

describe('QuickLinksAccountFactory and QuickLinksAccount', () => {
  it('deploys an account at its counterfactual address for any caller, once', async () => {
    const owner = newKey()
    const predicted = await anvil.publicClient.readContract({
      address: accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 7n],
    })
    expect(await anvil.publicClient.getCode({ address: predicted })).toBeUndefined()

    // Someone who is not the owner deploys it (as an ERC-6492 verifier would).
    expect(await createAccount(owner.address, 7n, anvil.other)).toBe(predicted)
    const code = await anvil.publicClient.getCode({ address: predicted })
    expect(code).toMatch(/^0x[0-9a-f]+$/)
    const readOwner = () =>
      anvil.publicClient.readContract({
        address: predicted,
        abi: quickLinksAccountAbi,
        functionName: 'owner',
      })
    expect(await readOwner()).toBe(owner.address)

    // Again: nothing changes, and it still answers with the same account.
    const { result } = await anvil.publicClient.simulateContract({
      account: anvil.deployer,
      address: accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner.address, 7n],
    })
    expect(result).toBe(predicted)
    expect(await createAccount(owner.address, 7n)).toBe(predicted)
    expect(await anvil.publicClient.getCode({ address: predicted })).toBe(code)
    expect(await readOwner()).toBe(owner.address)

    // The address depends on the owner and the salt.
    const others = await Promise.all(
      [
        [owner.address, 8n],
        [newKey().address, 7n],
      ].map(([who, salt]) =>
        anvil.publicClient.readContract({
          address: accountFactory,
          abi: quickLinksAccountFactoryAbi,
          functionName: 'getAddress',
          args: [who as Address, salt as bigint],
        }),
      ),
    )
    expect(new Set([predicted, ...others]).size).toBe(3)
  })

  it("accepts the owner's signature over its replay-safe hash, and nothing else (ERC-1271)", async () => {
    const owner = newKey()
    const account = await createAccount(owner.address, 1n)
    const sameOwnerOtherAccount = await createAccount(owner.address, 2n)
    const hash = keccak256(toHex('Sign in to Quick Links'))

    const replaySafeHash = await anvil.publicClient.readContract({
      address: account,
      abi: quickLinksAccountAbi,
      functionName: 'replaySafeHash',
      args: [hash],
    })
    // The digest is EIP-712 data of this account, so wallets can show what they sign.
    expect(
      hashTypedData({
        domain: {
          name: 'QuickLinksAccount',
          version: '1',
          chainId: await anvil.publicClient.getChainId(),
          verifyingContract: account,
        },
        types: { QuickLinksMessage: [{ name: 'hash', type: 'bytes32' }] },
        primaryType: 'QuickLinksMessage',
        message: { hash },
      }),
    ).toBe(replaySafeHash)

    const signature = await owner.sign({ hash: replaySafeHash })
    expect(await isValidSignature(account, hash, signature)).toBe(validSignature)
    // Another key over the same digest.
    expect(await isValidSignature(account, hash, await newKey().sign({ hash: replaySafeHash }))).toBe(
      invalidSignature,
    )
    // The owner's signature of the bare hash (not bound to the account).
    expect(await isValidSignature(account, hash, await owner.sign({ hash }))).toBe(invalidSignature)
    // The same signature replayed to another account of the same owner.
    expect(await isValidSignature(sameOwnerOtherAccount, hash, signature)).toBe(invalidSignature)
    // A malformed signature is an answer, not a revert.
    expect(await isValidSignature(account, hash, '0x1234')).toBe(invalidSignature)
  })
})

describe('SponsorPaymaster through EntryPoint v0.8', () => {
  type Sponsorship = {
    signer: PrivateKeyAccount
    validUntil: number
    validAfter?: number
    /** Changes the operation after the sponsor signed it (the owner signs what results). */
    tamper?: (userOperation: UserOperation<'0.8'>) => void
  }

  /**
   * A user operation of a new (undeployed, 0 ETH) QuickLinksAccount that pays `receiver` nothing
   * but leaves a trace, sponsored by the paymaster with `sponsorship`'s signature.
   */
  async function buildSponsoredOperation(sponsorship: Sponsorship) {
    const owner = newKey()
    const salt = 0n
    const sender = await anvil.publicClient.readContract({
      address: accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, salt],
    })
    const block = await anvil.publicClient.getBlock()
    const validity = encodeAbiParameters(
      [{ type: 'uint48' }, { type: 'uint48' }],
      [sponsorship.validUntil, sponsorship.validAfter ?? 0],
    )
    const userOperation: UserOperation<'0.8'> = {
      sender,
      nonce: 0n,
      factory: accountFactory,
      factoryData: encodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner.address, salt],
      }),
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
      paymaster,
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 0n,
      // The signature's place holds 65 bytes while the hash is taken; getHash does not read them.
      paymasterData: concatHex([validity, `0x${'00'.repeat(65)}`]),
      signature: '0x',
    }
    const sponsorHash = await anvil.publicClient.readContract({
      address: paymaster,
      abi: sponsorPaymasterAbi,
      functionName: 'getHash',
      args: [
        toPackedUserOperation(userOperation),
        zeroAddress,
        sponsorship.validUntil,
        sponsorship.validAfter ?? 0,
      ],
    })
    userOperation.paymasterData = concatHex([
      validity,
      await sponsorship.signer.signMessage({ message: { raw: sponsorHash } }),
    ])
    sponsorship.tamper?.(userOperation)
    const userOperationHash = getUserOperationHash({
      chainId: await anvil.publicClient.getChainId(),
      entryPointAddress: entryPoint,
      entryPointVersion: '0.8',
      userOperation,
    })
    userOperation.signature = await owner.sign({ hash: userOperationHash })
    const packed: PackedUserOperation = toPackedUserOperation(userOperation)
    // The EntryPoint agrees on the hash the owner signed.
    expect(
      await anvil.publicClient.readContract({
        address: entryPoint,
        abi: entryPointV08Abi,
        functionName: 'getUserOpHash',
        args: [packed],
      }),
    ).toBe(userOperationHash)
    return { packed, sender, userOperationHash }
  }

  /**
   * A test EOA submits the operation as a bundler would (simulated first: a refusal throws with the
   * EntryPoint's reason): the allowed bundler, anvil.other, unless `from` says otherwise.
   */
  const handleOps = async (
    packed: PackedUserOperation,
    beneficiary: Address,
    from: Address = anvil.other,
  ) => {
    const { request } = await anvil.publicClient.simulateContract({
      account: from,
      address: entryPoint,
      abi: entryPointV08Abi,
      functionName: 'handleOps',
      args: [[packed], beneficiary],
    })
    return anvil.walletClient.writeContract(request)
  }
  const readDeposit = (who: Address) =>
    anvil.publicClient.readContract({
      address: entryPoint,
      abi: entryPointV08Abi,
      functionName: 'balanceOf',
      args: [who],
    })
  const inAnHour = async () => Number((await anvil.publicClient.getBlock()).timestamp) + 3600

  it("runs an operation of an account with 0 ETH on the paymaster's deposit when the sponsor signed it", async () => {
    const { packed, sender, userOperationHash } = await buildSponsoredOperation({
      signer: sponsorSigner,
      validUntil: await inAnHour(),
    })
    const beneficiary = newKey().address
    const depositBefore = await readDeposit(paymaster)

    const receipt = await send(await handleOps(packed, beneficiary))
    const [event] = parseEventLogs({
      abi: entryPointV08Abi,
      logs: receipt.logs,
      eventName: 'UserOperationEvent',
    })
    expect(event?.args).toMatchObject({ userOpHash: userOperationHash, sender, paymaster, success: true })
    const actualGasCost = event?.args.actualGasCost ?? 0n
    expect(actualGasCost).toBeGreaterThan(0n)
    // The paymaster's deposit paid the bundler (here the test EOA's beneficiary); the account paid nothing.
    expect(depositBefore - (await readDeposit(paymaster))).toBe(actualGasCost)
    expect(await anvil.publicClient.getBalance({ address: beneficiary })).toBe(actualGasCost)
    expect(await anvil.publicClient.getBalance({ address: sender })).toBe(0n)
    expect(await readDeposit(sender)).toBe(0n)
    expect(await anvil.publicClient.getCode({ address: sender })).toMatch(/^0x[0-9a-f]+$/)

    // The same operation again is refused (its account exists now): a sponsorship pays once.
    await expect(handleOps(packed, beneficiary)).rejects.toThrow('AA10 sender already constructed')
  })

  it('refuses an operation signed by another key than the sponsor service', async () => {
    const { packed, sender } = await buildSponsoredOperation({
      signer: newKey(),
      validUntil: await inAnHour(),
    })
    const depositBefore = await readDeposit(paymaster)
    await expect(handleOps(packed, newKey().address)).rejects.toThrow('AA34 signature error')
    expect(await readDeposit(paymaster)).toBe(depositBefore)
    expect(await anvil.publicClient.getCode({ address: sender })).toBeUndefined()
  })

  it('refuses an operation whose sponsorship has expired, or is not valid yet', async () => {
    const now = Number((await anvil.publicClient.getBlock()).timestamp)
    const expired = await buildSponsoredOperation({ signer: sponsorSigner, validUntil: now - 1 })
    await expect(handleOps(expired.packed, newKey().address)).rejects.toThrow(
      'AA32 paymaster expired or not due',
    )
    const early = await buildSponsoredOperation({
      signer: sponsorSigner,
      validUntil: now + 7200,
      validAfter: now + 3600,
    })
    await expect(handleOps(early.packed, newKey().address)).rejects.toThrow(
      'AA32 paymaster expired or not due',
    )
  })

  it('refuses a sponsored operation whose gas fields were changed after the sponsor signed', async () => {
    // The owner signs an operation with a higher fee than the sponsor agreed to pay.
    const { packed } = await buildSponsoredOperation({
      signer: sponsorSigner,
      validUntil: await inAnHour(),
      tamper: (userOperation) => {
        userOperation.maxFeePerGas *= 2n
      },
    })
    await expect(handleOps(packed, newKey().address)).rejects.toThrow('AA34 signature error')
  })
})
