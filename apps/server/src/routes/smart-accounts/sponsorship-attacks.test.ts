// The ways the sponsor's deposit was farmed (issue 29), each performed against the real thing: the
// app listening on loopback, anvil (Prague) with the devnet's contracts, and Alto in front of it.
// Longer than 300 lines: the five attacks share one chain, one bundler and their helpers.
import { quickLinksAccountAbi } from '@quicklinks/contracts/generated/quick-links-account'
import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import {
  simple7702AccountAbi,
  simple7702AccountBytecode,
} from '@quicklinks/contracts/generated/simple7702-account'
import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { eq, sql } from 'drizzle-orm'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  hexToBigInt,
  http,
  type LocalAccount,
  numberToHex,
  toHex,
} from 'viem'
import {
  entryPoint08Abi,
  entryPoint08Address,
  formatUserOperationRequest,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { insertSignerWallet } from '../../../test/insert-signer-wallet.ts'
import { signInOverHttp } from '../../../test/sign-in-over-http.ts'
import {
  type SmartAccountTestChain,
  startSmartAccountTestChain,
} from '../../../test/start-smart-account-chain.ts'
import type { SponsorPolicyConfig } from '../../config/sponsor-policy-settings.ts'
import { sponsorGasGrants, users } from '../../db/schema.ts'

const funder = getDevnetAccount(0)
/** Someone with ETH of their own, who would like the sponsor's gas refunds. */
const outsider = getDevnetAccount(1)
/** Alto's executor: the bundler the devnet's paymaster allows. */
const executor = getDevnetAccount(10)
const paymasterSignerKey = toHex(getDevnetAccount(12).getHdKey().privateKey ?? new Uint8Array())
const stubSignature: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/** A hand-made operation's sponsored gas: (100k + 60k + 50k + the paymaster's 100k) × 1 gwei. */
const handMadeCostWei = 310_000n * 1_000_000_000n

const policies: SponsorPolicyConfig[] = [
  {
    id: 'roomy',
    accounts: 'embedded',
    tokens: ['USDC'],
    contracts: [],
    dailyGasCapWei: 10n ** 19n,
    globalDailyGasCapWei: 10n ** 20n,
  },
  // Each user could take ten operations a day; all of them together, two and a half.
  {
    id: 'shared',
    accounts: 'embedded',
    tokens: ['USDC'],
    contracts: [],
    dailyGasCapWei: 10n * handMadeCostWei,
    globalDailyGasCapWei: (5n * handMadeCostWei) / 2n,
  },
]

type JsonRpcAnswer = {
  result?: Record<string, string>
  error?: { code: number; message: string; data?: Record<string, unknown> }
}

describe('sponsorship that cannot be farmed', () => {
  let chain: SmartAccountTestChain
  let testApp: TestApp
  let origin: string
  let usdc: Address

  beforeAll(async () => {
    chain = await startSmartAccountTestChain({ withBundler: true })
    // The app's public origin is where it listens: SIWE messages name it.
    const port = await getFreePort()
    origin = `http://127.0.0.1:${port}`
    testApp = await buildTestApp({
      publicOrigin: origin,
      rpcUrls: { [chain.chainId]: chain.rpcUrl },
      paymasterSignerKey,
      sponsorPolicies: policies,
      sponsorDefaultPolicyId: 'roomy',
    })
    chain.writeDeploymentFile(testApp.app.config.devnetDeploymentFile)
    await testApp.app.listen({ port, host: '127.0.0.1' })
    const found = chain.deployment.tokens.find((each) => each.symbol === 'USDC')
    if (!found) throw new Error('no USDC')
    usdc = found.address
  }, 240_000)

  afterAll(async () => {
    await testApp?.close()
    await chain?.stop()
  })

  const wallet = () =>
    createWalletClient({ account: funder, chain: chain.client.chain, transport: http(chain.rpcUrl) })
  const contracts = () => chain.deployment.contracts

  /** Signs in over HTTP with SIWE as `key`, an embedded wallet (a signer wallet) unless `embedded` is false. */
  async function signIn(key: LocalAccount, embedded = true) {
    if (embedded) await insertSignerWallet(testApp.database.db, key.address)
    const session = await signInOverHttp(origin, key)
    const post = async (path: string, method: string, params: unknown[]): Promise<JsonRpcAnswer> => {
      const response = await fetch(`${origin}${path}/${chain.chainId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      return (await response.json()) as JsonRpcAnswer
    }
    return {
      sponsor: (method: string, operation: unknown, policyId = 'roomy') =>
        post('/api/paymaster', method, [
          operation,
          entryPoint08Address,
          numberToHex(chain.chainId),
          { policyId },
        ]),
      bundle: (method: string, params: unknown[]) => post('/api/bundler', method, params),
    }
  }

  async function fundUsdc(to: Address): Promise<void> {
    const hash = await wallet().writeContract({
      address: usdc,
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [to, 1n],
    })
    await chain.client.waitForTransactionReceipt({ hash })
  }

  const transferCall = (to: Address) =>
    encodeFunctionData({
      abi: quickLinksAccountAbi,
      functionName: 'execute',
      args: [usdc, 0n, encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [to, 1n] })],
    })

  /** `owner`'s undeployed QuickLinksAccount (holding 1 USDC) sending it on, with hand-made gas at 1 gwei. */
  async function accountOperation(owner: Address): Promise<UserOperation<'0.8'>> {
    const sender = await chain.client.readContract({
      address: contracts().accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, 0n],
    })
    await fundUsdc(sender)
    return {
      sender,
      nonce: 0n,
      factory: contracts().accountFactory,
      factoryData: encodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner, 0n],
      }),
      callData: transferCall(privateKeyToAccount(generatePrivateKey()).address),
      callGasLimit: 60_000n,
      verificationGasLimit: 100_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
      signature: stubSignature,
    }
  }

  /** The fees the SDK asks for: twice the latest base fee plus the node's tip. */
  async function chainFees() {
    const [block, tip] = await Promise.all([
      chain.client.getBlock(),
      chain.client.estimateMaxPriorityFeePerGas(),
    ])
    return { maxFeePerGas: 2n * (block.baseFeePerGas ?? 0n) + tip, maxPriorityFeePerGas: tip }
  }

  /** The operation with the stub's paymaster fields and the bundler's gas estimate, as the SDK prepares it. */
  async function prepare(
    caller: Awaited<ReturnType<typeof signIn>>,
    operation: UserOperation<'0.8'>,
  ): Promise<UserOperation<'0.8'>> {
    const stub = await caller.sponsor('pm_getPaymasterStubData', formatUserOperationRequest(operation))
    if (!stub.result) throw new Error(`stub refused: ${stub.error?.message}`)
    const withStub = { ...operation, ...readPaymasterFields(stub.result) }
    const estimate = await fetch(chain.bundlerUrl ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_estimateUserOperationGas',
        params: [formatUserOperationRequest(withStub), entryPoint08Address],
      }),
    })
    const gas = ((await estimate.json()) as JsonRpcAnswer).result
    if (!gas) throw new Error('the bundler did not estimate the operation')
    return {
      ...withStub,
      callGasLimit: hexToBigInt(gas.callGasLimit as Hex),
      verificationGasLimit: hexToBigInt(gas.verificationGasLimit as Hex),
      preVerificationGas: hexToBigInt(gas.preVerificationGas as Hex),
    }
  }

  function readPaymasterFields(result: Record<string, string>) {
    return {
      paymaster: result.paymaster as Address,
      paymasterData: result.paymasterData as Hex,
      paymasterVerificationGasLimit: hexToBigInt(result.paymasterVerificationGasLimit as Hex),
      paymasterPostOpGasLimit: hexToBigInt(result.paymasterPostOpGasLimit as Hex),
    }
  }

  /** The account's signature over the EntryPoint's hash of the operation as the chain sees it now. */
  async function signAsAccount(
    operation: UserOperation<'0.8'>,
    key: LocalAccount,
  ): Promise<UserOperation<'0.8'>> {
    const hash = await chain.client.readContract({
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'getUserOpHash',
      args: [toPackedUserOperation(operation)],
    })
    if (key.sign === undefined) throw new Error('the key cannot sign hashes')
    return { ...operation, signature: await key.sign({ hash }) }
  }

  const readDeposit = () =>
    chain.client.readContract({
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [contracts().sponsorPaymaster],
    })

  /** What the EntryPoint says when `from` submits the operation with `beneficiary` (simulated): 'accepted' or its error. */
  const submitDirectly = (operation: UserOperation<'0.8'>, from: Address, beneficiary: Address) =>
    chain.client
      .simulateContract({
        account: from,
        address: entryPoint08Address,
        abi: entryPoint08Abi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation(operation)], beneficiary],
      })
      .then(
        () => 'accepted',
        (error: Error) => error.message,
      )

  async function waitForReceipt(caller: Awaited<ReturnType<typeof signIn>>, hash: string) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const receipt = await caller.bundle('eth_getUserOperationReceipt', [hash])
      if (receipt.result) return receipt.result as unknown as { success: boolean }
      await new Promise((done) => setTimeout(done, 100))
    }
    throw new Error(`no receipt for ${hash}`)
  }

  it('gives a fresh EOA signed in with Ethereum no sponsorship, for its smart account or its own address', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    const caller = await signIn(stranger, false)
    const smartAccount = formatUserOperationRequest(await accountOperation(stranger.address))
    const ownAddress = {
      ...formatUserOperationRequest({
        ...(await accountOperation(stranger.address)),
        sender: stranger.address,
      }),
      factory: '0x7702',
      factoryData: '0x',
      eip7702Auth: {
        address: contracts().simple7702Account,
        chainId: numberToHex(chain.chainId),
        nonce: '0x0',
        r: `0x${'11'.repeat(32)}`,
        s: `0x${'22'.repeat(32)}`,
        yParity: '0x0',
      },
    }
    for (const operation of [smartAccount, ownAddress]) {
      for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
        const answer = await caller.sponsor(method, operation)
        expect(answer.result, method).toBeUndefined()
        expect(answer.error).toEqual({
          code: -32001,
          message:
            'Gas is sponsored only for embedded wallets and the smart accounts they own. Sign in with your Quick Links wallet.',
          data: { reason: 'NOT_SPONSORED', policyId: 'roomy' },
        })
      }
    }
    // The same operation of an embedded wallet's account is sponsored.
    const embedded = privateKeyToAccount(generatePrivateKey())
    const theirs = await (await signIn(embedded)).sponsor(
      'pm_getPaymasterData',
      formatUserOperationRequest(await accountOperation(embedded.address)),
    )
    expect(theirs.result?.paymaster).toBe(contracts().sponsorPaymaster)
  })

  it("refuses an embedded user's operation at 100× the chain's fee or with a 1,000,000 preVerificationGas, and grants it at the chain's own", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const caller = await signIn(owner)
    const operation = await prepare(caller, {
      ...(await accountOperation(owner.address)),
      ...(await chainFees()),
    })
    const userId = await findUserId(owner.address)

    const greedy = await caller.sponsor(
      'pm_getPaymasterData',
      formatUserOperationRequest({ ...operation, maxFeePerGas: 100n * operation.maxFeePerGas }),
    )
    expect(greedy.error?.message).toMatch(
      /^The operation's maxFeePerGas \(\d+ wei\) is above what is sponsored now/,
    )
    expect(greedy.error?.data).toMatchObject({ reason: 'NOT_SPONSORED', field: 'maxFeePerGas' })
    const padded = await caller.sponsor(
      'pm_getPaymasterData',
      formatUserOperationRequest({ ...operation, preVerificationGas: 1_000_000n }),
    )
    expect(padded.error?.message).toMatch(
      /^The operation's preVerificationGas \(1000000\) is above what is sponsored/,
    )
    expect(padded.error?.data).toMatchObject({ reason: 'NOT_SPONSORED', field: 'preVerificationGas' })
    expect(await readGrants(userId)).toBe(0)

    const fair = await caller.sponsor('pm_getPaymasterData', formatUserOperationRequest(operation))
    expect(fair.result?.paymaster).toBe(contracts().sponsorPaymaster)
    expect(await readGrants(userId)).toBe(1)
  })

  it('reverts an operation with valid paymaster data that an outsider submits to the EntryPoint with its own beneficiary', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const caller = await signIn(owner)
    const prepared = await prepare(caller, {
      ...(await accountOperation(owner.address)),
      ...(await chainFees()),
    })
    const granted = await caller.sponsor('pm_getPaymasterData', formatUserOperationRequest(prepared))
    if (!granted.result) throw new Error(`not sponsored: ${granted.error?.message}`)
    const operation = await signAsAccount({ ...prepared, ...readPaymasterFields(granted.result) }, owner)
    const depositBefore = await readDeposit()

    const refusal = await submitDirectly(operation, outsider.address, outsider.address)
    expect(refusal).toContain('AA33 reverted')
    expect(refusal).toContain(toHex('SponsorPaymaster: not an allowed bundler').slice(2))
    // Sent anyway, the outsider's transaction reverts: it pays its own gas and earns nothing.
    const balanceBefore = await chain.client.getBalance({ address: outsider.address })
    const hash = await createWalletClient({
      account: outsider,
      chain: chain.client.chain,
      transport: http(chain.rpcUrl),
    }).writeContract({
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(operation)], outsider.address],
      gas: 2_000_000n,
    })
    expect((await chain.client.waitForTransactionReceipt({ hash })).status).toBe('reverted')
    expect(await chain.client.getBalance({ address: outsider.address })).toBeLessThan(balanceBefore)
    expect(await readDeposit()).toBe(depositBefore)

    // The operator's bundler takes the very same operation.
    const sent = await caller.bundle('eth_sendUserOperation', [
      formatUserOperationRequest(operation),
      entryPoint08Address,
    ])
    expect((await waitForReceipt(caller, sent.result as unknown as string)).success).toBe(true)
    expect(await readDeposit()).toBeLessThan(depositBefore)
  })

  it('refuses on chain a sponsored EIP-7702 operation once its EOA re-delegated to another delegate', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const caller = await signIn(owner)
    await fundUsdc(owner.address)
    await delegate(owner, contracts().simple7702Account)
    // Already delegated, the EOA sends as an account with no init code at all (no 0x7702 marker,
    // so the EntryPoint's hash does not name the delegate): only the paymaster can tell.
    const prepared = await prepare(caller, {
      sender: owner.address,
      nonce: 0n,
      callData: encodeFunctionData({
        abi: simple7702AccountAbi,
        functionName: 'execute',
        args: [
          usdc,
          0n,
          encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [funder.address, 1n] }),
        ],
      }),
      callGasLimit: 0n,
      verificationGasLimit: 0n,
      preVerificationGas: 0n,
      ...(await chainFees()),
      signature: stubSignature,
    })
    const granted = await caller.sponsor('pm_getPaymasterData', formatUserOperationRequest(prepared))
    if (!granted.result) throw new Error(`not sponsored: ${granted.error?.message}`)
    const sponsored = { ...prepared, ...readPaymasterFields(granted.result) }

    // After the sponsor signed, the user points the EOA at another delegate and signs the operation for it.
    const deployed = await wallet().deployContract({
      abi: simple7702AccountAbi,
      bytecode: simple7702AccountBytecode,
    })
    const otherDelegate = (await chain.client.waitForTransactionReceipt({ hash: deployed })).contractAddress
    if (!otherDelegate) throw new Error('no second delegate')
    await delegate(owner, otherDelegate)
    const redelegated = await signAsAccount(sponsored, owner)
    const depositBefore = await readDeposit()
    const refused = await caller.bundle('eth_sendUserOperation', [
      formatUserOperationRequest(redelegated),
      entryPoint08Address,
    ])
    expect(refused.result).toBeUndefined()
    expect(refused.error?.message).toMatch(/AA34 signature error|paymaster/i)
    // Even the allowed bundler cannot get it through the EntryPoint.
    expect(await submitDirectly(redelegated, executor.address, executor.address)).toContain(
      'AA34 signature error',
    )
    expect(await readDeposit()).toBe(depositBefore)

    // Back on Simple7702Account, the same sponsorship holds.
    await delegate(owner, contracts().simple7702Account)
    const restored = await signAsAccount(sponsored, owner)
    const sent = await caller.bundle('eth_sendUserOperation', [
      formatUserOperationRequest(restored),
      entryPoint08Address,
    ])
    expect(sent.error).toBeUndefined()
    expect((await waitForReceipt(caller, sent.result as unknown as string)).success).toBe(true)
  })

  it("lets many users together take no more than the policy's global daily budget", async () => {
    const keys = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()))
    const callers = await Promise.all(keys.map((key) => signIn(key)))
    const operations: UserOperation<'0.8'>[] = []
    // One after another: the funder sends each account its USDC.
    for (const key of keys) operations.push(await accountOperation(key.address))
    const answers = await Promise.all(
      callers.map((caller, index) =>
        caller.sponsor(
          'pm_getPaymasterData',
          formatUserOperationRequest(operations[index] as UserOperation<'0.8'>),
          'shared',
        ),
      ),
    )
    const outcomes = answers
      .map((answer) => (answer.result ? 'granted' : String(answer.error?.data?.reason)))
      .sort()
    expect(outcomes).toEqual(['POLICY_SPENT', 'POLICY_SPENT', 'POLICY_SPENT', 'granted', 'granted'])
    // A sixth user, whose own cap is untouched, gets nothing either.
    const latecomer = privateKeyToAccount(generatePrivateKey())
    const late = await (await signIn(latecomer)).sponsor(
      'pm_getPaymasterData',
      formatUserOperationRequest(await accountOperation(latecomer.address)),
      'shared',
    )
    expect(late.error?.data).toMatchObject({ reason: 'POLICY_SPENT', policyId: 'shared' })
  })

  /** Sends `key`'s EIP-7702 authorization to `to` in a transaction of the funder. */
  async function delegate(key: LocalAccount, to: Address): Promise<void> {
    if (key.signAuthorization === undefined) throw new Error('the key cannot sign authorizations')
    const authorization = await key.signAuthorization({
      address: to,
      chainId: chain.chainId,
      nonce: await chain.client.getTransactionCount({ address: key.address }),
    })
    const hash = await wallet().sendTransaction({ to: key.address, authorizationList: [authorization] })
    expect((await chain.client.waitForTransactionReceipt({ hash })).status).toBe('success')
  }

  async function findUserId(address: Address): Promise<string> {
    const [user] = await testApp.database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.address}) = ${address.toLowerCase()}`)
    if (!user) throw new Error(`no user ${address}`)
    return user.id
  }

  async function readGrants(userId: string): Promise<number> {
    const rows = await testApp.database.db
      .select()
      .from(sponsorGasGrants)
      .where(eq(sponsorGasGrants.userId, userId))
    return rows.reduce((sum, row) => sum + row.grants, 0)
  }
})
