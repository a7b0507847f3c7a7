// The wallet SDK's multi-owner calls (signer-client: multiOwnerCreate … approveMultiOwnerActivity)
// against the real signer with MULTI_OWNER_ENABLED on; a quorum activity the SDK polls throws
// the documented error while it waits for approvals.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { quickLinksMultiOwnerAccountAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account'
import { deployAccountAbstraction } from '@quicklinks/devnet/deploy-account-abstraction'
import { devnetAccountCount, devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AltoProcess, spawnAlto } from '@quicklinks/devnet/spawn-alto'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import {
  signMultiOwnerApproval,
  toMultiOwnerOwnerAccount,
} from '@quicklinks/wallet/multi-owner-owner-account'
import { pollActivity } from '@quicklinks/wallet/poll-activity'
import type { ClientStepUp, SignerClient } from '@quicklinks/wallet/signer-client'
import { createSignerStore, type SignerStore } from '@quicklinks/wallet/signer-store'
import { toQuickLinksMultiOwnerSmartAccount } from '@quicklinks/wallet/smart-accounts/to-quick-links-smart-account'
import type { Stamper } from '@quicklinks/wallet/stamper'
import type { FastifyInstance } from 'fastify'
import {
  concatHex,
  createClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  parseEther,
  recoverAddress,
  toHex,
} from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../src/build-signer-app.ts'
import { parseSignerEnv } from '../src/config/signer-env.ts'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'
import { multiOwnerAccountFactoryAddress } from '../src/services/multi-owner/multi-owner-account.ts'
import { createRecordingDelivery, readCode } from './build-signer-test-app.ts'
import { createTestSignerClient } from './create-test-signer-client.ts'
import { createSoftwarePasskey } from './software-passkey.ts'

let database: DatabaseClient
let app: FastifyInstance
let baseUrl: string
const delivery = createRecordingDelivery()
const stores: SignerStore[] = []

beforeAll(async () => {
  const config = parseSignerEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ql-wallet-multi-owner-test-')),
    PUBLIC_ORIGIN: 'http://localhost:3999',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000',
    SIGNER_MASTER_KEY: randomBytes(32).toString('hex'),
    MULTI_OWNER_ENABLED: 'true',
  })
  expect(config.multiOwnerEnabled).toBe(true)
  database = await createDatabaseClient({ kind: 'pglite' })
  await migrateSignerDatabase(database)
  app = await buildSignerApp(config, { database, logger: createLogger('silent'), delivery })
  await app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const store of stores) store.destroy()
  await app?.close()
  await database?.close()
})

/** A signed-in SDK: its client, its stamper and the user's organization and address. */
async function signIn(email: string): Promise<{
  client: SignerClient
  stamper: Stamper
  orgId: string
  address: Hex
  stepUp: ClientStepUp
}> {
  const client = await createTestSignerClient(baseUrl)
  const stamper = createKeyStamper()
  const store = createSignerStore({ client, stamper, storage: null, eventTarget: null })
  stores.push(store)
  await store.getState().authenticateWithEmail({ email })
  await store.getState().submitOtpCode(readCode(delivery.emails.at(-1)?.text ?? ''))
  const user = store.getState().user
  if (user === null) throw new Error('not signed in')
  // Membership changes need the step-up (docs/signer.md#step-up): a passkey of the account, added
  // with a code to its e-mail, stamps them itself.
  const passkey = createSoftwarePasskey({ origin: 'http://localhost:3999', rpId: 'localhost' })
  const { otpId } = await client.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email })
  const { verificationToken } = await client.verifyOtp({
    otpId,
    otpCode: readCode(delivery.emails.at(-1)?.text ?? ''),
  })
  const { challenge } = await client.passkeyChallenge()
  await client.addPasskey(
    stamper,
    user.orgId,
    { challenge, attestation: passkey.attest(challenge) },
    { verificationToken },
  )
  const stepUp: ClientStepUp = {
    stampWithPasskey: async (body) => ({
      stampHeaderName: 'X-Stamp-WebAuthn',
      stampHeaderValue: passkey.stamp(body),
    }),
  }
  return { client, stamper, orgId: user.orgId, address: user.address as Hex, stepUp }
}

describe('wallet SDK: multi-owner on the real signer', () => {
  it('creates a 2-of-2 organization, signs once a member approved, and adds a member', async () => {
    const { client, stamper, orgId, address, stepUp } = await signIn('sdk-multi-owner@example.com')
    const member = privateKeyToAccount(generatePrivateKey())
    const newcomer = privateKeyToAccount(generatePrivateKey())

    const created = await client.multiOwnerCreate(
      stamper,
      orgId,
      {
        members: [{ evmSignerAddress: member.address }],
        rootQuorumThreshold: 2,
      },
      stepUp,
    )
    expect(created.result).toMatchObject({
      orgId,
      evmSignerAddress: address,
      members: [{ evmSignerAddress: address }, { evmSignerAddress: member.address }],
      rootQuorumThreshold: 2,
    })

    const hash = keccak256(toHex('multi-owner payload'))
    const { activity } = await client.multiOwnerSignRawPayload(stamper, orgId, {
      signWith: address,
      payload: hash,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    await expect(
      pollActivity({
        activity,
        getActivity: async (id) => (await client.getActivity(stamper, orgId, id)).activity,
      }),
    ).rejects.toThrow(
      `Failed to get activity with with id ${activity.id} (status: ACTIVITY_STATUS_CONSENSUS_NEEDED)`,
    )

    const approval = await signMultiOwnerApproval({ member, activity, payload: hash })
    const approved = await client.approveMultiOwnerActivity('multi-owner-sign-raw-payload', approval)
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // Both members' signatures of the hash, by increasing address, as the account reads them.
    const shares = approved.activity.result?.signatures ?? []
    expect(shares.map((share) => share.evmSignerAddress)).toEqual(
      [address, member.address].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    )
    for (const share of shares) {
      expect(await recoverAddress({ hash, signature: share.signature })).toBe(share.evmSignerAddress)
    }
    expect(approved.activity.result?.signature).toBe(concatHex(shares.map((share) => share.signature)))

    // A refusal reaches the caller as the signer's message.
    await expect(client.approveMultiOwnerActivity('multi-owner-sign-raw-payload', approval)).rejects.toThrow(
      'This activity no longer waits for approvals.',
    )

    const prepared = await client.multiOwnerPrepareAdd(
      stamper,
      orgId,
      [{ evmSignerAddress: newcomer.address }],
      stepUp,
    )
    expect((await client.multiOwnerAdd(stamper, orgId, prepared.activity.id, stepUp)).activity.status).toBe(
      'ACTIVITY_STATUS_CONSENSUS_NEEDED',
    )
    const added = await client.approveMultiOwnerActivity('multi-owner-add', {
      activityId: prepared.activity.id,
      evmSignerAddress: member.address,
      signature: await member.signMessage({
        message: prepared.activity.result?.consensus?.approvalMessage ?? '',
      }),
    })
    expect(added.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(added.activity.result?.members).toEqual([
      { evmSignerAddress: address },
      { evmSignerAddress: member.address },
      { evmSignerAddress: newcomer.address },
    ])
    expect(added.activity.result?.ownerUpdate?.added).toEqual([newcomer.address])

    const quorum = await client.multiOwnerUpdateRootQuorum(stamper, orgId, 3, stepUp)
    expect(quorum.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const prepareDelete = await client.multiOwnerPrepareDelete(
      stamper,
      orgId,
      [{ evmSignerAddress: newcomer.address }],
      stepUp,
    )
    await expect(
      client.multiOwnerDelete(stamper, orgId, prepareDelete.activity.id, stepUp),
    ).resolves.toMatchObject({
      activity: { status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED' },
    })
  })

  it('sends the quorum-approved owner update through a real bundler with the SDK’s multi-owner account', async () => {
    const chainId = 48_812
    const anvil: AnvilProcess = await spawnAnvil({
      host: '127.0.0.1',
      port: await getFreePort(),
      chainId,
      mnemonic: devnetMnemonic,
      accountCount: devnetAccountCount,
    })
    let alto: AltoProcess | undefined
    try {
      const chain = defineChain({
        id: chainId,
        name: 'Multi-owner SDK test',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [anvil.rpcUrl] } },
      })
      const transport = http(anvil.rpcUrl, { retryCount: 0 })
      const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
      const walletClient = createWalletClient({ chain, transport })
      const testClient = createTestClient({ chain, transport, mode: 'anvil' })
      const [deployer] = await walletClient.getAddresses()
      if (deployer === undefined) throw new Error('anvil has no accounts')
      const contracts = await deployAccountAbstraction({
        publicClient,
        walletClient,
        testClient,
        deployer,
        chainName: 'multi-owner SDK test',
      })
      alto = await spawnAlto({ host: '127.0.0.1', port: await getFreePort(), rpcUrl: anvil.rpcUrl, chainId })

      const { client, stamper, orgId, address, stepUp } = await signIn('sdk-multi-owner-chain@example.com')
      const member = privateKeyToAccount(generatePrivateKey())
      const newcomer = privateKeyToAccount(generatePrivateKey())
      const created = await client.multiOwnerCreate(
        stamper,
        orgId,
        {
          members: [{ evmSignerAddress: member.address }],
          rootQuorumThreshold: 2,
        },
        stepUp,
      )
      const initialOwners = created.result.members.map((m) => m.evmSignerAddress)

      // The co-signer: approves (and signs) whatever the wallet key is asked to sign (here, in the test).
      const approvalsAsked: string[] = []
      const owner = toMultiOwnerOwnerAccount({
        client,
        stamper,
        organizationId: orgId,
        address,
        awaitApprovals: async (activity, { payload }) => {
          approvalsAsked.push(activity.id)
          await client.approveMultiOwnerActivity(
            'multi-owner-sign-raw-payload',
            await signMultiOwnerApproval({ member, activity, payload }),
          )
        },
      })
      const account = await toQuickLinksMultiOwnerSmartAccount({
        client: createClient({ chain, transport }),
        owner,
        owners: initialOwners,
        threshold: created.result.rootQuorumThreshold,
        entryPoint: contracts.entryPointV08,
        factory: contracts.multiOwnerAccountFactory,
      })
      expect(contracts.multiOwnerAccountFactory).toBe(multiOwnerAccountFactoryAddress)
      expect(account.address).toBe(created.result.accountAddress)
      await testClient.setBalance({ address: account.address, value: parseEther('1') })

      const prepared = await client.multiOwnerPrepareAdd(
        stamper,
        orgId,
        [{ evmSignerAddress: newcomer.address }],
        stepUp,
      )
      await client.multiOwnerAdd(stamper, orgId, prepared.activity.id, stepUp)
      const added = await client.approveMultiOwnerActivity('multi-owner-add', {
        activityId: prepared.activity.id,
        evmSignerAddress: member.address,
        signature: await member.signMessage({
          message: prepared.activity.result?.consensus?.approvalMessage ?? '',
        }),
      })
      const callData = added.activity.result?.ownerUpdate?.callData
      if (callData === undefined) throw new Error('no owner update')

      const bundler = createBundlerClient({ account, client: publicClient, transport: http(alto.bundlerUrl) })
      const hash = await bundler.sendUserOperation({ callData })
      const receipt = await bundler.waitForUserOperationReceipt({ hash, pollingInterval: 50 })
      expect(receipt.success).toBe(true)
      expect(approvalsAsked).toHaveLength(1)
      expect(
        await publicClient.readContract({
          address: account.address,
          abi: quickLinksMultiOwnerAccountAbi,
          functionName: 'owners',
        }),
      ).toEqual([address, member.address, newcomer.address])

      // Funds move the same way: the wallet key and the member sign together through the bundler.
      const receiver = privateKeyToAccount(generatePrivateKey()).address
      const transfer = await bundler.sendUserOperation({
        calls: [{ to: receiver, value: parseEther('0.1') }],
      })
      expect(
        (await bundler.waitForUserOperationReceipt({ hash: transfer, pollingInterval: 50 })).success,
      ).toBe(true)
      expect(await publicClient.getBalance({ address: receiver })).toBe(parseEther('0.1'))
      expect(approvalsAsked).toHaveLength(2)
    } finally {
      await alto?.stop()
      await anvil.stop()
    }
  }, 180_000)
})
