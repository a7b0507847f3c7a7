import { quickLinksAccountAbi } from '@quicklinks/contracts/generated/quick-links-account'
import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { quickLinksMultiOwnerAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-multi-owner-account-factory'
import { testTokenAbi } from '@quicklinks/contracts/generated/test-token'
import { policySpentMessage } from '@quicklinks/core/api/smart-accounts'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import { and, eq } from 'drizzle-orm'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  numberToHex,
  parseUnits,
  size,
  toHex,
} from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { insertSignerWallet } from '../../../test/insert-signer-wallet.ts'
import {
  type SmartAccountTestChain,
  startSmartAccountTestChain,
  toTestQuickLinksAccount,
} from '../../../test/start-smart-account-chain.ts'
import type { SponsorPolicyConfig } from '../../config/sponsor-policy-settings.ts'
import { sponsorGasGrants } from '../../db/schema.ts'
import { createSession } from '../../services/sessions/create-session.ts'
import { getOrCreateUser } from '../../services/users/get-or-create-user.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const funder = getDevnetAccount(0)
const paymasterSignerKey = toHex(getDevnetAccount(12).getHdKey().privateKey ?? new Uint8Array())

/**
 * Gas of the hand-made operations below: (100k + 60k + 50k + the paymaster's 100k) × 1 gwei, each
 * within what the sponsor allows above the bundler's estimate (a 1-unit token transfer's call is
 * estimated at about 40k).
 */
const handMadeCostWei = 310_000n * 1_000_000_000n

const policies: SponsorPolicyConfig[] = [
  {
    id: 'wallet',
    accounts: 'embedded',
    tokens: ['USDC'],
    contracts: [],
    devnetContracts: ['payRouter'],
    dailyGasCapWei: 10n ** 17n,
    globalDailyGasCapWei: 10n ** 19n,
  },
  {
    id: 'tiny',
    accounts: 'embedded',
    tokens: ['USDC'],
    contracts: [],
    dailyGasCapWei: 2n * handMadeCostWei,
    globalDailyGasCapWei: 10n ** 19n,
  },
  {
    id: 'edge',
    accounts: 'embedded',
    tokens: ['USDC'],
    contracts: [],
    dailyGasCapWei: handMadeCostWei,
    globalDailyGasCapWei: 10n ** 19n,
  },
  {
    id: 'elsewhere',
    chainIds: [10],
    accounts: 'embedded',
    tokens: ['USDC'],
    contracts: [],
    dailyGasCapWei: 10n ** 17n,
    globalDailyGasCapWei: 10n ** 19n,
  },
]

type Caller = {
  address: Address
  userId: string
  cookie: string
  post(
    url: string,
    payload: unknown,
    options?: { withCsrf?: boolean; signedIn?: boolean },
  ): Promise<{
    statusCode: number
    json(): {
      jsonrpc?: string
      result?: unknown
      error?: { code: number | string; message: string; data?: Record<string, unknown> }
    }
  }>
}

describe('POST /api/bundler/{chainId} and POST /api/paymaster/{chainId}', () => {
  let chain: SmartAccountTestChain
  let testApp: TestApp
  let origin: string
  let usdc: Address
  let usdt: Address

  beforeAll(async () => {
    chain = await startSmartAccountTestChain({ withBundler: true })
    testApp = await buildTestApp({
      rpcUrls: { [chain.chainId]: chain.rpcUrl },
      paymasterSignerKey,
      sponsorPolicies: policies,
      sponsorDefaultPolicyId: 'wallet',
    })
    chain.writeDeploymentFile(testApp.app.config.devnetDeploymentFile)
    await testApp.app.listen({ port: 0, host: '127.0.0.1' })
    const address = testApp.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening')
    origin = `http://127.0.0.1:${address.port}`
    const token = (symbol: string) => {
      const found = chain.deployment.tokens.find((each) => each.symbol === symbol)
      if (!found) throw new Error(`no ${symbol}`)
      return found.address
    }
    usdc = token('USDC')
    usdt = token('USDT')
  }, 240_000)

  afterAll(async () => {
    await testApp?.close()
    await chain?.stop()
  })

  /** A user signed in as a fresh embedded wallet (a signer wallet whose key the test holds). */
  async function signIn(): Promise<Caller & { owner: ReturnType<typeof privateKeyToAccount> }> {
    const owner = privateKeyToAccount(generatePrivateKey())
    await insertSignerWallet(testApp.database.db, owner.address)
    const user = await getOrCreateUser(testApp.database.db, { address: owner.address.toLowerCase() })
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    return {
      owner,
      address: owner.address,
      userId: user.id,
      cookie: `csrf_token=${csrf}; ql_session=${token}`,
      post: (url, payload, options = {}) =>
        testApp.app.inject({
          method: 'POST',
          url,
          payload: payload as Record<string, unknown>,
          cookies: { csrf_token: csrf, ...(options.signedIn === false ? {} : { ql_session: token }) },
          headers: options.withCsrf === false ? {} : { 'x-csrf-token': csrf },
        }),
    }
  }

  const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 7, method, params })

  async function smartAccountOf(owner: Address): Promise<Address> {
    return chain.client.readContract({
      address: chain.deployment.contracts.accountFactory,
      abi: quickLinksAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, 0n],
    })
  }

  const transfer = (token: Address, to: Address, amount = 1n) =>
    encodeFunctionData({
      abi: quickLinksAccountAbi,
      functionName: 'execute',
      args: [
        token,
        0n,
        encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [to, amount] }),
      ],
    })

  /** A user operation as viem sends it (RPC form), with fixed gas: costs `handMadeCostWei` to sponsor. */
  function handMadeOperation(input: {
    sender: Address
    callData: Hex
    factory?: Address
    factoryData?: Hex
  }) {
    return {
      sender: input.sender,
      nonce: '0x0',
      ...(input.factory ? { factory: input.factory, factoryData: input.factoryData } : {}),
      callData: input.callData,
      callGasLimit: numberToHex(60_000),
      verificationGasLimit: numberToHex(100_000),
      preVerificationGas: numberToHex(50_000),
      maxFeePerGas: numberToHex(1_000_000_000),
      maxPriorityFeePerGas: numberToHex(1_000_000),
    }
  }

  /** Gives `to` 1 unit of USDC, so an operation transferring it can be estimated (the sponsor asks the bundler). */
  async function fundUsdc(to: Address): Promise<void> {
    const hash = await createWalletClient({
      account: funder,
      chain: chain.client.chain,
      transport: http(chain.rpcUrl),
    }).writeContract({ address: usdc, abi: testTokenAbi, functionName: 'transfer', args: [to, 1n] })
    await chain.client.waitForTransactionReceipt({ hash })
  }

  /** The user's own undeployed QuickLinksAccount sending 1 unit of `token` to `to` (holding 1 USDC). */
  async function ownOperation(owner: Address, token: Address, to: Address) {
    const sender = await smartAccountOf(owner)
    await fundUsdc(sender)
    return handMadeOperation({
      sender,
      callData: transfer(token, to),
      factory: chain.deployment.contracts.accountFactory,
      factoryData: encodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner, 0n],
      }),
    })
  }

  const paymasterParams = (operation: unknown, policyId: string) => [
    operation,
    entryPoint08Address,
    numberToHex(chain.chainId),
    { policyId },
  ]

  it("sends a sponsored user operation from an account with 0 ETH through the server's bundler relay and paymaster", async () => {
    const user = await signIn()
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const account = await toTestQuickLinksAccount({
      client: chain.client,
      owner: user.owner,
      factory: chain.deployment.contracts.accountFactory,
    })
    const wallet = createWalletClient({
      account: funder,
      chain: chain.client.chain,
      transport: http(chain.rpcUrl),
    })
    const funded = await wallet.writeContract({
      address: usdc,
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [account.address, parseUnits('5', 6)],
    })
    await chain.client.waitForTransactionReceipt({ hash: funded })
    expect(await chain.client.getBalance({ address: account.address })).toBe(0n)

    // The SDK's way in: the page's origin only, with the session cookie and the CSRF header.
    const fetchOptions = { headers: { cookie: user.cookie, 'x-csrf-token': csrf } }
    const bundler = createBundlerClient({
      client: chain.client,
      transport: http(`${origin}/api/bundler/${chain.chainId}`, { fetchOptions }),
      paymaster: createPaymasterClient({
        transport: http(`${origin}/api/paymaster/${chain.chainId}`, { fetchOptions }),
      }),
      paymasterContext: { policyId: 'wallet' },
      pollingInterval: 100,
    })
    const hash = await bundler.sendUserOperation({
      account,
      calls: [
        {
          to: usdc,
          data: encodeFunctionData({
            abi: testTokenAbi,
            functionName: 'transfer',
            args: [recipient, parseUnits('1', 6)],
          }),
        },
      ],
    })
    const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster?.toLowerCase()).toBe(chain.deployment.contracts.sponsorPaymaster.toLowerCase())
    expect(
      await chain.client.readContract({
        address: usdc,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(parseUnits('1', 6))
    expect(await chain.client.getBalance({ address: account.address })).toBe(0n)
    // The grant is on the user's day under the policy, and covers what the operation cost.
    const [grant] = await testApp.database.db
      .select()
      .from(sponsorGasGrants)
      .where(and(eq(sponsorGasGrants.userId, user.userId), eq(sponsorGasGrants.policyId, 'wallet')))
    expect(grant?.grants).toBe(1)
    expect(BigInt(grant?.grantedWei ?? '0')).toBeGreaterThanOrEqual(receipt.actualGasCost)
  })

  it("relays the bundler's read methods and refuses the others", async () => {
    const user = await signIn()
    const chainIdAnswer = await user.post(`/api/bundler/${chain.chainId}`, call('eth_chainId'))
    expect(chainIdAnswer.statusCode).toBe(200)
    expect(chainIdAnswer.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x2105' })
    const entryPoints = await user.post(`/api/bundler/${chain.chainId}`, call('eth_supportedEntryPoints'))
    expect(entryPoints.json().result).toContain(entryPoint08Address)
    for (const method of [
      'debug_bundler_clearState',
      'debug_bundler_setBundlingMode',
      'eth_sendTransaction',
    ]) {
      const refused = await user.post(`/api/bundler/${chain.chainId}`, call(method))
      expect(refused.statusCode, method).toBe(422)
      expect(refused.json().error).toMatchObject({ code: -32601 })
    }
    const unknownChain = await user.post('/api/bundler/10', call('eth_chainId'))
    expect(unknownChain.statusCode).toBe(404)
  })

  it("refuses another user's account as the sender: 403 from the bundler relay, NOT_SPONSORED from the paymaster", async () => {
    const owner = await signIn()
    const stranger = await signIn()
    const operation = await ownOperation(owner.address, usdc, stranger.address)

    for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
      const refused = await stranger.post(
        `/api/bundler/${chain.chainId}`,
        call(method, [operation, entryPoint08Address]),
      )
      expect(refused.statusCode, method).toBe(403)
      expect(refused.json()).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32003,
          message: `Only your own accounts' operations are sent; ${operation.sender} is not one of them.`,
          data: { reason: 'NOT_YOUR_ACCOUNT', sender: operation.sender },
        },
      })
    }
    const notSponsored = await stranger.post(
      `/api/paymaster/${chain.chainId}`,
      call('pm_getPaymasterData', paymasterParams(operation, 'wallet')),
    )
    expect(notSponsored.statusCode).toBe(200)
    expect(notSponsored.json().error).toMatchObject({
      code: -32001,
      data: { reason: 'NOT_SPONSORED', policyId: 'wallet' },
    })
    // The stranger's own EOA is theirs, but not delegated to Simple7702Account: not sponsored either.
    const eoa = handMadeOperation({ sender: stranger.address, callData: transfer(usdc, owner.address) })
    const undelegated = await stranger.post(
      `/api/paymaster/${chain.chainId}`,
      call('pm_getPaymasterData', paymasterParams(eoa, 'wallet')),
    )
    expect(undelegated.json().error?.data).toMatchObject({ reason: 'NOT_SPONSORED' })

    // The owner's own account passes the relay's check (Alto then simulates it: the account holds no USDC).
    const own = await owner.post(
      `/api/bundler/${chain.chainId}`,
      call('eth_estimateUserOperationGas', [operation, entryPoint08Address]),
    )
    expect(own.statusCode).toBe(200)
    expect(own.json().jsonrpc).toBe('2.0')
  })

  it('sponsors a multi-owner account for each of its owners and for no one else, and an EOA delegating to Simple7702Account', async () => {
    const first = await signIn()
    const second = await signIn()
    const outsider = await signIn()
    const owners = [first.address, second.address] as const
    const sender = await chain.client.readContract({
      address: chain.deployment.contracts.multiOwnerAccountFactory,
      abi: quickLinksMultiOwnerAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owners, 1n, 0n],
    })
    await fundUsdc(sender)
    await fundUsdc(outsider.address)
    const operation = handMadeOperation({
      sender,
      callData: transfer(usdc, outsider.address),
      factory: chain.deployment.contracts.multiOwnerAccountFactory,
      factoryData: encodeFunctionData({
        abi: quickLinksMultiOwnerAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owners, 1n, 0n],
      }),
    })
    for (const owner of [first, second]) {
      const granted = await owner.post(
        `/api/paymaster/${chain.chainId}`,
        call('pm_getPaymasterData', paymasterParams(operation, 'wallet')),
      )
      expect(granted.json().result).toMatchObject({ paymaster: chain.deployment.contracts.sponsorPaymaster })
    }
    const refused = await outsider.post(
      `/api/paymaster/${chain.chainId}`,
      call('pm_getPaymasterData', paymasterParams(operation, 'wallet')),
    )
    expect(refused.json().error?.data).toMatchObject({ reason: 'NOT_SPONSORED' })

    const delegated = {
      ...handMadeOperation({ sender: outsider.address, callData: transfer(usdc, first.address) }),
      factory: '0x7702',
      factoryData: '0x',
      eip7702Auth: {
        address: chain.deployment.contracts.simple7702Account,
        chainId: numberToHex(chain.chainId),
        nonce: '0x0',
        r: `0x${'11'.repeat(32)}`,
        s: `0x${'22'.repeat(32)}`,
        yParity: '0x0',
      },
    }
    const eoa = await outsider.post(
      `/api/paymaster/${chain.chainId}`,
      call('pm_getPaymasterData', paymasterParams(delegated, 'wallet')),
    )
    expect(eoa.json().result).toMatchObject({ paymaster: chain.deployment.contracts.sponsorPaymaster })
  })

  it('sponsors a user who signed in as their smart account itself (SIWE by ERC-1271 or ERC-6492)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    // The account's owner is an embedded wallet: what makes it sponsored under `accounts: "embedded"`.
    await insertSignerWallet(testApp.database.db, owner.address)
    const account = await smartAccountOf(owner.address)
    const user = await getOrCreateUser(testApp.database.db, { address: account.toLowerCase() })
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    const operation = await ownOperation(owner.address, usdc, owner.address)
    const answer = await testApp.app.inject({
      method: 'POST',
      url: `/api/paymaster/${chain.chainId}`,
      payload: call('pm_getPaymasterData', paymasterParams(operation, 'wallet')),
      cookies: { csrf_token: csrf, ql_session: token },
      headers: { 'x-csrf-token': csrf },
    })
    expect(answer.json().result).toMatchObject({ paymaster: chain.deployment.contracts.sponsorPaymaster })
    // Its factory must be ours: the same sender deployed by another factory is not sponsored.
    const foreignFactory = await testApp.app.inject({
      method: 'POST',
      url: `/api/paymaster/${chain.chainId}`,
      payload: call(
        'pm_getPaymasterData',
        paymasterParams({ ...operation, factory: chain.deployment.contracts.payRouter }, 'wallet'),
      ),
      cookies: { csrf_token: csrf, ql_session: token },
      headers: { 'x-csrf-token': csrf },
    })
    expect(foreignFactory.json().error?.data).toMatchObject({ reason: 'NOT_SPONSORED' })
  })

  it('refuses calls outside the policy, a policy that does not cover the chain, and an unknown policy', async () => {
    const user = await signIn()
    const other = privateKeyToAccount(generatePrivateKey()).address
    const sponsor = (operation: unknown, policyId: string) =>
      user.post(
        `/api/paymaster/${chain.chainId}`,
        call('pm_getPaymasterStubData', paymasterParams(operation, policyId)),
      )

    const otherToken = await sponsor(await ownOperation(user.address, usdt, other), 'wallet')
    expect(otherToken.json().error).toEqual({
      code: -32001,
      message: `This operation calls ${usdt}, which the policy does not cover.`,
      data: { reason: 'NOT_SPONSORED', policyId: 'wallet', target: usdt },
    })
    const nativeValue = await sponsor(
      {
        ...(await ownOperation(user.address, usdc, other)),
        callData: encodeFunctionData({
          abi: quickLinksAccountAbi,
          functionName: 'execute',
          args: [other, 1n, '0x'],
        }),
      },
      'wallet',
    )
    expect(nativeValue.json().error?.data).toMatchObject({ reason: 'NOT_SPONSORED', target: other })
    // A USDC call that is neither transfer nor approve (mint) is not covered by a token entry.
    const mint = await sponsor(
      {
        ...(await ownOperation(user.address, usdc, other)),
        callData: encodeFunctionData({
          abi: quickLinksAccountAbi,
          functionName: 'execute',
          args: [
            usdc,
            0n,
            encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [other, 1n] }),
          ],
        }),
      },
      'wallet',
    )
    expect(mint.json().error?.data).toMatchObject({ reason: 'NOT_SPONSORED' })
    // PayRouter is one of the policy's contracts: any call to it is covered, beside a USDC approve.
    const payRouter = chain.deployment.contracts.payRouter
    const batch = await sponsor(
      {
        ...(await ownOperation(user.address, usdc, other)),
        callData: encodeFunctionData({
          abi: quickLinksAccountAbi,
          functionName: 'executeBatch',
          args: [
            [
              {
                target: usdc,
                value: 0n,
                data: encodeFunctionData({
                  abi: testTokenAbi,
                  functionName: 'approve',
                  args: [payRouter, 1n],
                }),
              },
              { target: payRouter, value: 0n, data: '0x12345678' },
            ],
          ],
        }),
      },
      'wallet',
    )
    expect(batch.json().result).toMatchObject({
      paymaster: chain.deployment.contracts.sponsorPaymaster,
      isFinal: false,
    })
    // Stub data: the validity window (64 bytes) and a 65-byte signature, so estimation runs the real check.
    expect(size((batch.json().result as { paymasterData: Hex }).paymasterData)).toBe(129)

    const elsewhere = await sponsor(await ownOperation(user.address, usdc, other), 'elsewhere')
    expect(elsewhere.json().error?.data).toMatchObject({ reason: 'NOT_SPONSORED', policyId: 'elsewhere' })
    const unknown = await sponsor(await ownOperation(user.address, usdc, other), 'no-such-policy')
    expect(unknown.json().error).toEqual({
      code: -32001,
      message: 'There is no gas sponsorship policy "no-such-policy".',
      data: { reason: 'UNKNOWN_POLICY', policyId: 'no-such-policy' },
    })
    const wrongMethod = await user.post(
      `/api/paymaster/${chain.chainId}`,
      call('pm_sponsorUserOperation', []),
    )
    expect(wrongMethod.json().error).toMatchObject({ code: -32601 })
  })

  it("grants gas up to the user's daily cap, then answers POLICY_SPENT, to the stub request too", async () => {
    const user = await signIn()
    const operation = await ownOperation(
      user.address,
      usdc,
      privateKeyToAccount(generatePrivateKey()).address,
    )
    const sponsor = (method: string) =>
      user.post(`/api/paymaster/${chain.chainId}`, call(method, paymasterParams(operation, 'tiny')))
    for (let granted = 0; granted < 2; granted += 1) {
      const answer = await sponsor('pm_getPaymasterData')
      expect(answer.json().result).toMatchObject({
        paymaster: chain.deployment.contracts.sponsorPaymaster,
        paymasterVerificationGasLimit: numberToHex(100_000),
        paymasterPostOpGasLimit: '0x0',
      })
    }
    const tomorrow = new Date(
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1),
    )
    for (const method of ['pm_getPaymasterData', 'pm_getPaymasterStubData']) {
      const spent = await sponsor(method)
      expect(spent.statusCode).toBe(200)
      expect(spent.json().error, method).toEqual({
        code: -32001,
        message: policySpentMessage,
        data: { reason: 'POLICY_SPENT', policyId: 'tiny', resetsAt: tomorrow.toISOString() },
      })
    }
    expect(policySpentMessage).toBe(
      'Gas sponsorship for today is used up. Pay the gas from your account, or try again after 00:00 UTC.',
    )
    // Another user's cap is their own.
    const other = await signIn()
    const theirs = await other.post(
      `/api/paymaster/${chain.chainId}`,
      call(
        'pm_getPaymasterData',
        paymasterParams(await ownOperation(other.address, usdc, user.address), 'tiny'),
      ),
    )
    expect(theirs.json().result).toBeDefined()
  })

  it('lets one of two racing requests through when the cap holds one operation', async () => {
    const user = await signIn()
    const operation = await ownOperation(
      user.address,
      usdc,
      privateKeyToAccount(generatePrivateKey()).address,
    )
    const answers = await Promise.all(
      [1, 2].map(() =>
        user.post(
          `/api/paymaster/${chain.chainId}`,
          call('pm_getPaymasterData', paymasterParams(operation, 'edge')),
        ),
      ),
    )
    const reasons = answers.map((answer) => answer.json().error?.data?.reason ?? 'granted').sort()
    expect(reasons).toEqual(['POLICY_SPENT', 'granted'])
  })

  it('answers 401 to a signed-out caller and 403 without the CSRF header, on both', async () => {
    const user = await signIn()
    const operation = await ownOperation(user.address, usdc, user.address)
    for (const [url, body] of [
      [`/api/bundler/${chain.chainId}`, call('eth_chainId')],
      [`/api/paymaster/${chain.chainId}`, call('pm_getPaymasterData', paymasterParams(operation, 'wallet'))],
    ] as const) {
      const signedOut = await user.post(url, body, { signedIn: false })
      expect(signedOut.statusCode, url).toBe(401)
      const noCsrf = await user.post(url, body, { withCsrf: false })
      expect(noCsrf.statusCode, url).toBe(403)
      expect(noCsrf.json().error?.code).toBe('CSRF_INVALID')
    }
  })
})
