// The signer's quorum against the real contract on anvil, in one file because its tests share one
// organization, one chain and the user-operation helpers (hence over 300 lines).
import { quickLinksMultiOwnerAccountAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account'
import { quickLinksMultiOwnerAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import { entryPointV08Address } from '@quicklinks/core/api/smart-accounts'
import { deployAccountAbstraction } from '@quicklinks/devnet/deploy-account-abstraction'
import { devnetAccountCount, devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem'
import {
  entryPoint08Abi,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSignerTestApp,
  postStamped,
  type SignedInClient,
  type SignerTestApp,
  signInByEmail,
} from '../../../test/build-signer-test-app.ts'
import type { SoftwarePasskey } from '../../../test/software-passkey.ts'
import { addStepUpPasskey, postPasskeyStamped } from '../../../test/step-up-passkey.ts'
import { getMultiOwnerAccountAddress, multiOwnerAccountFactoryAddress } from './multi-owner-account.ts'

type Activity = {
  id: string
  status: string
  result?: Record<string, unknown> & { consensus?: { approvalMessage: string } }
}

const chainId = 48_811

/** The members a completed state change answers, as addresses. */
function memberAddresses(activity: Activity): Address[] {
  const members = activity.result?.members as { evmSignerAddress: Address }[] | undefined
  if (members === undefined) throw new Error(`activity ${activity.id} answered no members`)
  return members.map((member) => member.evmSignerAddress)
}

/** The account call data of a completed add or delete. */
function ownerUpdateCallData(activity: Activity): Hex {
  const update = activity.result?.ownerUpdate as { callData: Hex } | undefined
  if (update === undefined) throw new Error(`activity ${activity.id} answered no owner update`)
  return update.callData
}

// The signer's quorum on one side, a real anvil (Prague) with the devnet's ERC-4337 contracts on
// the other: the account's owners on chain follow the organization's members, every user
// operation signed by the organization's wallet key through multi-owner-sign-raw-payload and sent
// through EntryPoint v0.8 handleOps by a funded EOA.
describe('the multi-owner account on chain', () => {
  let anvil: AnvilProcess
  let publicClient: PublicClient
  let submitter: Address
  let testApp: SignerTestApp
  let alice: SignedInClient
  let wallet: Address
  let passkey: SoftwarePasskey
  const member1 = privateKeyToAccount(generatePrivateKey())
  const member2 = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    anvil = await spawnAnvil({
      host: '127.0.0.1',
      port: await getFreePort(),
      chainId,
      mnemonic: devnetMnemonic,
      accountCount: devnetAccountCount,
    })
    const chain = defineChain({
      id: chainId,
      name: 'Multi-owner test',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const transport = http(anvil.rpcUrl, { retryCount: 0 })
    publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
    const walletClient = createWalletClient({ chain, transport })
    const testClient = createTestClient({ chain, transport, mode: 'anvil' })
    const [deployer] = await walletClient.getAddresses()
    if (deployer === undefined) throw new Error('anvil has no accounts')
    submitter = deployer
    const contracts = await deployAccountAbstraction({
      publicClient,
      walletClient,
      testClient,
      deployer,
      chainName: 'multi-owner test',
    })
    expect(contracts.multiOwnerAccountFactory).toBe(multiOwnerAccountFactoryAddress)
    expect(contracts.entryPointV08).toBe(entryPointV08Address)

    testApp = await buildSignerTestApp({ multiOwnerEnabled: true })
    alice = await signInByEmail(testApp, 'alice-on-chain@example.com')
    wallet = (await postStamped(testApp, 'whoami', alice, { type: 'ACTIVITY_TYPE_WHOAMI' })).json().address
    // Membership changes need the step-up: Alice stamps them with a passkey of her own.
    passkey = await addStepUpPasskey(testApp, alice, 'alice-on-chain@example.com')
  })
  afterAll(async () => {
    await testApp?.close()
    await anvil?.stop()
  })

  async function stamped(
    activity: { path: string; type: string; stepUp: string },
    parameters: Record<string, unknown>,
  ) {
    const response =
      activity.stepUp === 'reauth'
        ? await postPasskeyStamped(testApp, passkey, activity.path, {
            organizationId: alice.orgId,
            type: activity.type,
            parameters,
          })
        : await postStamped(testApp, activity.path, alice, { type: activity.type, parameters })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  async function approve(
    path: string,
    activity: Activity,
    member: PrivateKeyAccount,
    payload?: Hex,
  ): Promise<Activity> {
    const message = activity.result?.consensus?.approvalMessage
    if (message === undefined) throw new Error('the activity has no approval message')
    const signature = await member.signMessage({ message })
    const response = await testApp.post(path, {
      approval: {
        activityId: activity.id,
        evmSignerAddress: member.address,
        signature,
        ...(payload === undefined ? {} : { payloadSignature: await member.sign({ hash: payload }) }),
      },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json().activity
  }

  /**
   * The quorum of two (the session and `approver`) approves `hash`: the answer is the wallet key's
   * and the approver's signatures in the account's format.
   */
  async function signWithQuorum(hash: Hex, approver: PrivateKeyAccount): Promise<Hex> {
    const { activity } = await stamped(signerActivities.multiOwnerSignRawPayload, {
      signWith: wallet,
      payload: hash,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const approved = await approve(signerActivities.multiOwnerSignRawPayload.path, activity, approver, hash)
    expect(approved.status).toBe('ACTIVITY_STATUS_COMPLETED')
    return approved.result?.signature as Hex
  }

  /** One user operation of the account (unsigned) and its hash. */
  async function buildUserOperation(input: {
    sender: Address
    callData: Hex
    factory?: { address: Address; data: Hex }
  }): Promise<{ userOperation: UserOperation<'0.8'>; hash: Hex }> {
    const nonce = await publicClient.readContract({
      address: entryPointV08Address,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [input.sender, 0n],
    })
    const block = await publicClient.getBlock()
    const maxPriorityFeePerGas = 1_000_000_000n
    const userOperation: UserOperation<'0.8'> = {
      sender: input.sender,
      nonce,
      callData: input.callData,
      callGasLimit: 500_000n,
      verificationGasLimit: 1_500_000n,
      preVerificationGas: 100_000n,
      maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + maxPriorityFeePerGas,
      maxPriorityFeePerGas,
      signature: '0x',
      ...(input.factory === undefined
        ? {}
        : { factory: input.factory.address, factoryData: input.factory.data }),
    }
    const hash = getUserOperationHash({
      chainId,
      entryPointAddress: entryPointV08Address,
      entryPointVersion: '0.8',
      userOperation,
    })
    return { userOperation, hash }
  }

  /**
   * Submits a signed user operation through handleOps as a bundler would (simulated first, so a
   * refusal throws the EntryPoint's reason); resolves once it ran and succeeded.
   */
  async function submit(userOperation: UserOperation<'0.8'>, signature: Hex): Promise<Hex | undefined> {
    const { request } = await publicClient.simulateContract({
      account: submitter,
      address: entryPointV08Address,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation({ ...userOperation, signature })], submitter],
      gas: 5_000_000n,
    })
    const walletClient = createWalletClient({ chain: publicClient.chain, transport: http(anvil.rpcUrl) })
    const transaction = await walletClient.writeContract(request)
    const receipt = await publicClient.waitForTransactionReceipt({ hash: transaction, pollingInterval: 20 })
    expect(receipt.status).toBe('success')
    const [event] = parseEventLogs({
      abi: entryPoint08Abi,
      logs: receipt.logs,
      eventName: 'UserOperationEvent',
    })
    expect(event?.args.success).toBe(true)
    return event?.args.userOpHash
  }

  /** Builds, has the quorum (the session and `approver`) sign, and runs one user operation. */
  async function sendUserOperation(input: {
    sender: Address
    callData: Hex
    factory?: { address: Address; data: Hex }
    approver: PrivateKeyAccount
  }): Promise<void> {
    const { userOperation, hash } = await buildUserOperation(input)
    expect(await submit(userOperation, await signWithQuorum(hash, input.approver))).toBe(hash)
  }

  async function readOwners(account: Address): Promise<readonly Address[]> {
    return publicClient.readContract({
      address: account,
      abi: quickLinksMultiOwnerAccountAbi,
      functionName: 'owners',
    })
  }

  it('computes the factory’s counterfactual address without a chain', async () => {
    for (const [owners, threshold, salt] of [
      [[member1.address], 1n, 0n],
      [[member1.address, member2.address], 1n, 0n],
      [[member1.address, member2.address], 2n, 0n],
      [[member2.address, member1.address], 2n, 7n],
    ] as const) {
      const onChain = await publicClient.readContract({
        address: multiOwnerAccountFactoryAddress,
        abi: quickLinksMultiOwnerAccountFactoryAbi,
        functionName: 'getAddress',
        args: [owners, threshold, salt],
      })
      expect(getMultiOwnerAccountAddress(owners, Number(threshold), salt)).toBe(onChain)
    }
  })

  it('deploys the account with the members as owners and follows an add and a delete', async () => {
    const created = await stamped(signerActivities.multiOwnerCreate, {
      members: [{ evmSignerAddress: member1.address }],
      rootQuorumThreshold: 2,
    })
    const account = created.result.accountAddress as Address
    const initialOwners = [wallet, member1.address]
    expect(account).toBe(getMultiOwnerAccountAddress(initialOwners, 2))
    await createTestClient({
      chain: publicClient.chain,
      transport: http(anvil.rpcUrl),
      mode: 'anvil',
    }).setBalance({
      address: account,
      value: parseEther('1'),
    })

    // Add member2: the quorum approves, then the account's first user operation (which deploys it)
    // makes the owner update the signer answered.
    const prepared = (await stamped(signerActivities.multiOwnerPrepareAdd, {
      members: [{ evmSignerAddress: member2.address }],
    })) as { activity: Activity }
    await stamped(signerActivities.multiOwnerAdd, { activityId: prepared.activity.id })
    const added = await approve(signerActivities.multiOwnerAdd.path, prepared.activity, member1)
    expect(added.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await sendUserOperation({
      sender: account,
      callData: ownerUpdateCallData(added),
      approver: member1,
      factory: {
        address: multiOwnerAccountFactoryAddress,
        data: encodeFunctionData({
          abi: quickLinksMultiOwnerAccountFactoryAbi,
          functionName: 'createAccount',
          args: [initialOwners, 2n, 0n],
        }),
      },
    })
    const membersAfterAdd = memberAddresses(added)
    expect(membersAfterAdd).toEqual([wallet, member1.address, member2.address])
    expect(await readOwners(account)).toEqual(membersAfterAdd)

    // Remove member1 the same way.
    const preparedDelete = (await stamped(signerActivities.multiOwnerPrepareDelete, {
      members: [{ evmSignerAddress: member1.address }],
    })) as { activity: Activity }
    await stamped(signerActivities.multiOwnerDelete, { activityId: preparedDelete.activity.id })
    const deleted = await approve(signerActivities.multiOwnerDelete.path, preparedDelete.activity, member1)
    expect(deleted.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await sendUserOperation({
      sender: account,
      callData: ownerUpdateCallData(deleted),
      approver: member2,
    })
    const membersAfterDelete = memberAddresses(deleted)
    expect(membersAfterDelete).toEqual([wallet, member2.address])
    expect(await readOwners(account)).toEqual(membersAfterDelete)
    for (const address of [wallet, member1.address, member2.address]) {
      expect(
        await publicClient.readContract({
          address: account,
          abi: quickLinksMultiOwnerAccountAbi,
          functionName: 'isOwner',
          args: [address],
        }),
      ).toBe(address !== member1.address)
    }
  })

  it('lets no single owner move the funds, neither by execute nor by a user operation it signs alone; the quorum does', async () => {
    // The organization of the previous test: the wallet and member2, a quorum of two, deployed.
    const account = getMultiOwnerAccountAddress([wallet, member1.address], 2)
    expect(await readOwners(account)).toEqual([wallet, member2.address])
    const thief = privateKeyToAccount(generatePrivateKey()).address
    const testClient = createTestClient({
      chain: publicClient.chain,
      transport: http(anvil.rpcUrl),
      mode: 'anvil',
    })
    await testClient.setBalance({ address: account, value: parseEther('1') })
    await testClient.setBalance({ address: member2.address, value: parseEther('1') })
    const steal = encodeFunctionData({
      abi: quickLinksMultiOwnerAccountAbi,
      functionName: 'execute',
      args: [thief, parseEther('0.5'), '0x'],
    })

    // member2, an owner, calls the account itself.
    const walletClient = createWalletClient({ chain: publicClient.chain, transport: http(anvil.rpcUrl) })
    await expect(
      walletClient.sendTransaction({ account: member2, chain: publicClient.chain, to: account, data: steal }),
    ).rejects.toThrow('only the EntryPoint or the account')

    // member2 signs a user operation alone, in the account's format.
    const { userOperation, hash } = await buildUserOperation({ sender: account, callData: steal })
    await expect(submit(userOperation, await member2.sign({ hash }))).rejects.toThrow('AA24 signature error')
    // The session cannot get the wallet key's signature alone to add to it.
    const alone = await postStamped(testApp, 'sign-payload', alice, {
      type: signerActivities.signRawPayload.type,
      parameters: {
        signWith: wallet,
        payload: hash,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      },
    })
    expect(alone.statusCode).toBe(403)
    expect(await publicClient.getBalance({ address: thief })).toBe(0n)

    // With the quorum's two signatures (the wallet key's and member2's) the same operation runs.
    expect(await submit(userOperation, await signWithQuorum(hash, member2))).toBe(hash)
    expect(await publicClient.getBalance({ address: thief })).toBe(parseEther('0.5'))
  })
})
