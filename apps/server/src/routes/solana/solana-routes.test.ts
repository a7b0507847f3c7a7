import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { solanaFeePayerMethod } from '@quicklinks/core/api/solana'
import {
  type Address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createSolanaRpcFromTransport,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
  none,
  partiallySignTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  type RpcTransport,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Transaction,
} from '@solana/kit'
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  AccountState,
  getMintEncoder,
  getTokenEncoder,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { createEmbeddedWalletUser } from '../../../test/create-embedded-wallet-user.ts'
import type { SolanaSponsorPolicyConfig } from '../../config/solana-env.ts'
import { solanaFeeGrants } from '../../db/schema.ts'
import { createSession } from '../../services/sessions/create-session.ts'
import type { DevnetSolana } from '../../services/solana/devnet-solana.ts'
import { getOrCreateUser } from '../../services/users/get-or-create-user.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const systemProgram = '11111111111111111111111111111111'
const computeBudgetProgram = 'ComputeBudget111111111111111111111111111111'

const policies: SolanaSponsorPolicyConfig[] = [
  {
    id: 'wallet',
    programs: [systemProgram, TOKEN_PROGRAM_ADDRESS, computeBudgetProgram],
    maxFeeLamports: 50_000n,
    dailyFeeCapLamports: 1_000_000n,
    globalDailyFeeCapLamports: 1_000_000_000n,
  },
  {
    id: 'sol-only',
    programs: [systemProgram],
    maxFeeLamports: 50_000n,
    dailyFeeCapLamports: 1_000_000n,
    globalDailyFeeCapLamports: 1_000_000_000n,
  },
  // Room for exactly one transaction with two signatures a user a day.
  {
    id: 'edge',
    programs: [systemProgram],
    maxFeeLamports: 50_000n,
    dailyFeeCapLamports: 10_000n,
    globalDailyFeeCapLamports: 1_000_000_000n,
  },
]

type RpcAnswer = {
  jsonrpc?: string
  id?: number | string
  result?: unknown
  error?: { code: number; message: string; data?: Record<string, unknown> }
}

type Caller = {
  userId: string
  /** The user's own Solana account (the signer wallet's, here a key pair the test holds). */
  solana: KeyPairSigner
  /** One JSON-RPC request through the real HTTP server, with the session cookie and CSRF header. */
  call(
    method: string,
    params: unknown,
    options?: { signedIn?: boolean; withCsrf?: boolean },
  ): Promise<{
    status: number
    body: RpcAnswer & { message?: string }
  }>
  /** @solana/kit's RPC client on POST /api/solana. */
  rpc: ReturnType<typeof createSolanaRpcFromTransport<RpcTransport>>
}

describe('POST /api/solana', () => {
  let testApp: TestApp
  let url: string
  let devnet: DevnetSolana
  let sponsor: Address

  beforeAll(async () => {
    testApp = await buildTestApp({
      solanaDevnet: true,
      solanaSponsorPolicies: policies,
      solanaSponsorDefaultPolicyId: 'wallet',
    })
    await testApp.app.listen({ port: 0, host: '127.0.0.1' })
    const address = testApp.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening')
    url = `http://127.0.0.1:${address.port}/api/solana`
    const solana = testApp.app.solana
    if (solana.devnet === undefined || solana.sponsor === undefined) throw new Error('no LiteSVM or sponsor')
    devnet = solana.devnet
    sponsor = solana.sponsor.address
  }, 60_000)

  afterAll(async () => {
    await testApp?.close()
  })

  async function signIn(): Promise<Caller> {
    const solana = await generateKeyPairSigner()
    const user = await createEmbeddedWalletUser(testApp.database.db, solana.address)
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    let nextId = 1
    const post = async (payload: unknown, options: { signedIn?: boolean; withCsrf?: boolean } = {}) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `csrf_token=${csrf}${options.signedIn === false ? '' : `; ql_session=${token}`}`,
          ...(options.withCsrf === false ? {} : { 'x-csrf-token': csrf }),
        },
        // As kit's transport sends them: bigints as JSON numbers.
        body: JSON.stringify(payload, (_key, value: unknown) =>
          typeof value === 'bigint' ? Number(value) : value,
        ),
      })
      return { status: response.status, body: (await response.json()) as RpcAnswer & { message?: string } }
    }
    const transport: RpcTransport = async <TResponse>({ payload }: { payload: unknown }) =>
      (await post(payload)).body as TResponse
    return {
      userId: user.id,
      solana,
      call: (method, params, options) => post({ jsonrpc: '2.0', id: nextId++, method, params }, options),
      rpc: createSolanaRpcFromTransport(transport),
    }
  }

  /** A transaction message of `version` with the latest blockhash, paid by `feePayer`. */
  async function buildMessage(
    caller: Caller,
    version: 'legacy' | 0,
    feePayer: Address | KeyPairSigner,
    instructions: Instruction[],
  ) {
    const { value: blockhash } = await caller.rpc.getLatestBlockhash().send()
    return pipe(
      createTransactionMessage({ version }),
      (message) =>
        typeof feePayer === 'string'
          ? setTransactionMessageFeePayer(feePayer, message)
          : setTransactionMessageFeePayerSigner(feePayer, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
      (message) => appendTransactionMessageInstructions(instructions, message),
    )
  }

  /** Asks the sponsor to pay for `transaction`; the answer's transaction, decoded. */
  async function sponsorOrThrow(
    caller: Caller,
    transaction: Transaction,
    policyId = 'wallet',
  ): Promise<Transaction> {
    const answer = await caller.call(solanaFeePayerMethod, [
      { policyId, serializedTransaction: getBase64EncodedWireTransaction(transaction) },
    ])
    if (answer.body.error) throw new Error(`refused: ${answer.body.error.message}`)
    const { serializedTransaction } = answer.body.result as { serializedTransaction: string }
    return getTransactionDecoder().decode(getBase64Encoder().encode(serializedTransaction))
  }

  async function refusalOf(caller: Caller, transaction: Transaction, policyId = 'wallet') {
    const answer = await caller.call(solanaFeePayerMethod, [
      { policyId, serializedTransaction: getBase64EncodedWireTransaction(transaction) },
    ])
    expect(answer.status).toBe(200)
    expect(answer.body.result).toBeUndefined()
    return answer.body.error
  }

  async function send(caller: Caller, transaction: Transaction) {
    return caller.call('sendTransaction', [
      getBase64EncodedWireTransaction(transaction),
      { encoding: 'base64' },
    ])
  }

  /** A token mint and two token accounts on the LiteSVM: `owner` holds `amount`, `recipient` none. */
  async function setUpTokens(owner: Address, recipient: Address, amount: bigint) {
    const [mint, from, to] = await Promise.all([
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner(),
    ])
    const mintData = getMintEncoder().encode({
      mintAuthority: none(),
      supply: amount,
      decimals: 6,
      isInitialized: true,
      freezeAuthority: none(),
    })
    const put = (at: Address, data: Uint8Array) =>
      devnet.svm.setAccount({
        address: at,
        data,
        executable: false,
        lamports: lamports(devnet.svm.minimumBalanceForRentExemption(BigInt(data.length))),
        programAddress: TOKEN_PROGRAM_ADDRESS,
        space: BigInt(data.length),
      })
    put(mint.address, new Uint8Array(mintData))
    const tokenAccount = (holder: Address, balance: bigint) =>
      new Uint8Array(
        getTokenEncoder().encode({
          mint: mint.address,
          owner: holder,
          amount: balance,
          delegate: none(),
          state: AccountState.Initialized,
          isNative: none(),
          delegatedAmount: 0,
          closeAuthority: none(),
        }),
      )
    put(from.address, tokenAccount(owner, amount))
    put(to.address, tokenAccount(recipient, 0n))
    return { mint: mint.address, from: from.address, to: to.address }
  }

  it('a user with 0 SOL sends a sponsored SPL token transfer: it executes and the sponsor pays exactly the fee', async () => {
    const caller = await signIn()
    const user = caller.solana
    const friend = await generateKeyPairSigner()
    const tokens = await setUpTokens(user.address, friend.address, 100_000_000n)
    const message = await buildMessage(caller, 0, sponsor, [
      getTransferInstruction({
        source: tokens.from,
        destination: tokens.to,
        authority: user,
        amount: 25_000_000n,
      }),
    ])
    const signedByUser = await partiallySignTransactionMessageWithSigners(message)
    const sponsored = await sponsorOrThrow(caller, signedByUser)
    // The sponsor signed in the first slot; the user's signature stays as it came.
    expect(sponsored.signatures[sponsor]).toBeInstanceOf(Uint8Array)
    expect(sponsored.signatures[user.address]).toEqual(signedByUser.signatures[user.address])

    const sponsorBefore = devnet.balanceOf(sponsor)
    const sent = await send(caller, sponsored)
    expect(sent.body.error).toBeUndefined()
    const signature = sent.body.result as string
    const { value: statuses } = await caller.rpc.getSignatureStatuses([signature as never]).send()
    expect(statuses[0]?.confirmationStatus).toBe('finalized')
    expect(statuses[0]?.err).toBeNull()
    expect(sponsorBefore - devnet.balanceOf(sponsor)).toBe(10_000n)
    expect(await caller.rpc.getBalance(user.address).send()).toMatchObject({ value: 0n })
    const { value: received } = await caller.rpc.getTokenAccountBalance(tokens.to).send()
    expect(received).toMatchObject({ amount: '25000000', decimals: 6, uiAmountString: '25' })
    const { value: left } = await caller.rpc.getTokenAccountBalance(tokens.from).send()
    expect(left.amount).toBe('75000000')
    const { value: account } = await caller.rpc.getAccountInfo(tokens.to, { encoding: 'base64' }).send()
    expect(account?.owner).toBe(TOKEN_PROGRAM_ADDRESS)
  })

  for (const version of ['legacy', 0] as const) {
    it(`a SOL transfer (${version}) from a user funded only with the amount: the user's lamports change only by it`, async () => {
      const caller = await signIn()
      const user = caller.solana
      const friend = await generateKeyPairSigner()
      const amount = 2_000_000n
      const airdrop = await caller.call('requestAirdrop', [user.address, Number(amount)])
      expect(airdrop.body.error).toBeUndefined()
      const message = await buildMessage(caller, version, sponsor, [
        getTransferSolInstruction({ source: user, destination: friend.address, amount }),
      ])
      const sponsored = await sponsorOrThrow(
        caller,
        await partiallySignTransactionMessageWithSigners(message),
      )
      const sponsorBefore = devnet.balanceOf(sponsor)
      const sent = await send(caller, sponsored)
      expect(sent.body.error).toBeUndefined()
      expect(devnet.balanceOf(user.address)).toBe(0n)
      expect(devnet.balanceOf(friend.address)).toBe(amount)
      expect(sponsorBefore - devnet.balanceOf(sponsor)).toBe(10_000n)
      const compiled = getCompiledTransactionMessageDecoder().decode(sponsored.messageBytes)
      expect(compiled.version).toBe(version)
    })

    it(`rewrites a ${version} transaction the user paid for himself: the sponsor becomes the fee payer, the user signs again`, async () => {
      const caller = await signIn()
      const user = caller.solana
      const friend = await generateKeyPairSigner()
      const amount = 1_000_000n
      devnet.svm.airdrop(user.address, lamports(amount))
      const message = await buildMessage(caller, version, user, [
        getTransferSolInstruction({ source: user, destination: friend.address, amount }),
      ])
      const sponsored = await sponsorOrThrow(caller, await signTransactionMessageWithSigners(message))
      const compiled = getCompiledTransactionMessageDecoder().decode(sponsored.messageBytes)
      expect(compiled.version).toBe(version)
      expect(compiled.staticAccounts[0]).toBe(sponsor)
      expect(Object.keys(sponsored.signatures)).toEqual([sponsor, user.address])
      // The message changed: the user's old signature is gone, his slot is empty.
      expect(sponsored.signatures[user.address]).toBeNull()
      const unsigned = await send(caller, sponsored)
      expect(unsigned.body.error?.code).toBe(-32003)

      const sponsorBefore = devnet.balanceOf(sponsor)
      const sent = await send(caller, await partiallySignTransaction([user.keyPair], sponsored))
      expect(sent.body.error).toBeUndefined()
      expect(devnet.balanceOf(user.address)).toBe(0n)
      expect(devnet.balanceOf(friend.address)).toBe(amount)
      expect(sponsorBefore - devnet.balanceOf(sponsor)).toBe(10_000n)
    })
  }

  it('takes the object alone as params and the alchemy_requestFeePayer alias, and counts a priority fee', async () => {
    const caller = await signIn()
    const user = caller.solana
    const friend = await generateKeyPairSigner()
    devnet.svm.airdrop(user.address, lamports(1_000_000n))
    const message = await buildMessage(caller, 0, sponsor, [
      getSetComputeUnitLimitInstruction({ units: 10_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 1_000_000n }),
      getTransferSolInstruction({ source: user, destination: friend.address, amount: 1_000_000n }),
    ])
    const answer = await caller.call('alchemy_requestFeePayer', {
      policyId: 'wallet',
      serializedTransaction: getBase64EncodedWireTransaction(
        await partiallySignTransactionMessageWithSigners(message),
      ),
    })
    expect(answer.body.error).toBeUndefined()
    const { serializedTransaction } = answer.body.result as { serializedTransaction: string }
    const sponsorBefore = devnet.balanceOf(sponsor)
    const sent = await caller.call('sendTransaction', [serializedTransaction, { encoding: 'base64' }])
    expect(sent.body.error).toBeUndefined()
    // Two signatures and 10,000 units at 1 lamport each.
    expect(sponsorBefore - devnet.balanceOf(sponsor)).toBe(20_000n)
    // getFeeForMessage says what the runtime charged.
    const sponsoredBytes = getTransactionDecoder().decode(getBase64Encoder().encode(serializedTransaction))
    const fee = await caller.call('getFeeForMessage', [
      getBase64Decoder().decode(sponsoredBytes.messageBytes),
    ])
    expect(fee.body.result).toMatchObject({ value: 20_000 })
    const [row] = await testApp.database.db
      .select()
      .from(solanaFeeGrants)
      .where(and(eq(solanaFeeGrants.userId, caller.userId), eq(solanaFeeGrants.policyId, 'wallet')))
    expect(row).toMatchObject({ grantedLamports: '20000', grants: 1 })
  })

  it('refuses a program the policy does not list', async () => {
    const caller = await signIn()
    const user = caller.solana
    const friend = await generateKeyPairSigner()
    const tokens = await setUpTokens(user.address, friend.address, 10n)
    const message = await buildMessage(caller, 0, sponsor, [
      getTransferInstruction({ source: tokens.from, destination: tokens.to, authority: user, amount: 1n }),
    ])
    const error = await refusalOf(
      caller,
      await partiallySignTransactionMessageWithSigners(message),
      'sol-only',
    )
    expect(error).toEqual({
      code: -32001,
      message: `Policy sol-only does not sponsor calls to program ${TOKEN_PROGRAM_ADDRESS}`,
      data: { reason: 'PROGRAM_NOT_ALLOWED', programId: TOKEN_PROGRAM_ADDRESS },
    })
  })

  it("refuses a transfer out of the sponsor's account, and any instruction naming it", async () => {
    const caller = await signIn()
    const user = caller.solana
    const thief = await generateKeyPairSigner()
    const drain = await buildMessage(caller, 0, sponsor, [
      getTransferSolInstruction({
        source: createNoopSigner(sponsor),
        destination: thief.address,
        amount: 1_000_000_000n,
      }),
    ])
    const error = await refusalOf(caller, compileTransaction(drain))
    expect(error).toEqual({
      code: -32001,
      message: "An instruction names the sponsor's account; the sponsor only pays fees",
      data: { reason: 'SPONSOR_ACCOUNT_USED', sponsorAddress: sponsor },
    })
    // Paid by the user, the sponsor named elsewhere: refused the same way.
    devnet.svm.airdrop(user.address, lamports(1_000_000n))
    const named = await buildMessage(caller, 'legacy', user, [
      getTransferSolInstruction({ source: user, destination: sponsor, amount: 1n }),
    ])
    expect((await refusalOf(caller, await signTransactionMessageWithSigners(named)))?.data?.reason).toBe(
      'SPONSOR_ACCOUNT_USED',
    )
    const before = devnet.balanceOf(sponsor)
    // The drain, signed by nobody but with the sponsor as fee payer, cannot execute either.
    expect((await send(caller, compileTransaction(drain))).body.error?.code).toBe(-32003)
    expect(devnet.balanceOf(sponsor)).toBe(before)
  })

  it('refuses a fee over the policy cap, naming the fee', async () => {
    const caller = await signIn()
    const user = caller.solana
    const friend = await generateKeyPairSigner()
    const message = await buildMessage(caller, 0, sponsor, [
      getSetComputeUnitPriceInstruction({ microLamports: 1_000_000n }),
      getTransferSolInstruction({ source: user, destination: friend.address, amount: 1n }),
    ])
    const error = await refusalOf(caller, await partiallySignTransactionMessageWithSigners(message))
    // 2 × 5,000 + 200,000 units (one instruction, no limit set) × 1 lamport.
    expect(error).toEqual({
      code: -32001,
      message: "The fee of 210000 lamports is over policy wallet's cap of 50000 lamports per transaction",
      data: { reason: 'FEE_OVER_CAP', feeLamports: '210000', maxFeeLamports: '50000' },
    })
  })

  it('refuses past the daily cap: of two racing requests at the edge exactly one passes', async () => {
    const caller = await signIn()
    // Each costs 10,000 lamports (the sponsor's and the user's signatures): the edge policy's whole day.
    const transfer = async (from: Caller = caller) => {
      const friend = await generateKeyPairSigner()
      const message = await buildMessage(from, 0, sponsor, [
        getTransferSolInstruction({ source: from.solana, destination: friend.address, amount: 1n }),
      ])
      return partiallySignTransactionMessageWithSigners(message)
    }
    const [first, second, third] = await Promise.all([transfer(), transfer(), transfer()])
    const racing = await Promise.all([first, second].map((each) => refusalOrResult(caller, each, 'edge')))
    expect(racing.filter((answer) => answer.error === undefined)).toHaveLength(1)
    const midnight = new Date()
    midnight.setUTCHours(24, 0, 0, 0)
    const spent = {
      code: -32001,
      message: `Policy edge's daily fee cap of 10000 lamports for this user is spent until ${midnight.toISOString()}`,
      data: {
        reason: 'POLICY_SPENT',
        scope: 'user',
        resetsAt: midnight.toISOString(),
        dailyFeeCapLamports: '10000',
      },
    }
    expect(racing.find((answer) => answer.error !== undefined)?.error).toEqual(spent)
    expect((await refusalOrResult(caller, third as Transaction, 'edge')).error).toEqual(spent)
    const [row] = await testApp.database.db
      .select()
      .from(solanaFeeGrants)
      .where(and(eq(solanaFeeGrants.userId, caller.userId), eq(solanaFeeGrants.policyId, 'edge')))
    expect(row).toMatchObject({ grantedLamports: '10000', grants: 1 })
    // Another user's day is his own.
    const other = await signIn()
    expect((await refusalOrResult(other, await transfer(other), 'edge')).error).toBeUndefined()
  })

  async function refusalOrResult(caller: Caller, transaction: Transaction, policyId: string) {
    const answer = await caller.call(solanaFeePayerMethod, [
      { policyId, serializedTransaction: getBase64EncodedWireTransaction(transaction) },
    ])
    return answer.body
  }

  it('refuses an unknown policy, lookup tables, and answers -32602 to what is not a transaction', async () => {
    const caller = await signIn()
    const user = caller.solana
    const [friend, table] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    const message = await buildMessage(caller, 0, sponsor, [
      getTransferSolInstruction({ source: user, destination: friend.address, amount: 1n }),
    ])
    const signed = await partiallySignTransactionMessageWithSigners(message)
    expect(await refusalOf(caller, signed, 'nope')).toEqual({
      code: -32001,
      message: 'No Solana sponsorship policy is named "nope"',
      data: { reason: 'UNKNOWN_POLICY', policyId: 'nope' },
    })
    const { value: blockhash } = await caller.rpc.getLatestBlockhash().send()
    const v0Message = pipe(
      createTransactionMessage({ version: 0 }),
      (each) => setTransactionMessageFeePayer(sponsor, each),
      (each) => setTransactionMessageLifetimeUsingBlockhash(blockhash, each),
      (each) =>
        appendTransactionMessageInstructions(
          [getTransferSolInstruction({ source: user, destination: friend.address, amount: 1n })],
          each,
        ),
    )
    const compressed = compressTransactionMessageUsingAddressLookupTables(v0Message, {
      [table.address]: [friend.address],
    })
    const withTables = await partiallySignTransactionMessageWithSigners(compressed)
    expect(getCompiledTransactionMessageDecoder().decode(withTables.messageBytes)).toHaveProperty(
      'addressTableLookups.length',
      1,
    )
    expect((await refusalOf(caller, withTables))?.data).toEqual({ reason: 'LOOKUP_TABLES_UNSUPPORTED' })

    for (const serializedTransaction of [
      'not base64!',
      'AAAA',
      getBase64EncodedWireTransaction(signed).slice(0, 40),
    ]) {
      const answer = await caller.call(solanaFeePayerMethod, [{ policyId: 'wallet', serializedTransaction }])
      expect(answer.body.error?.code).toBe(-32602)
    }
    expect((await caller.call(solanaFeePayerMethod, [{ policyId: 'wallet' }])).body.error?.code).toBe(-32602)
    // The same transaction with its fee payer marked read-only (the v0 header after the 0x80 prefix).
    const bytes = new Uint8Array(getTransactionEncoder().encode(signed))
    const header = 1 + 64 * 2 + 1
    expect(bytes[header]).toBe(2)
    bytes[header + 1] = 2
    const readonlyPayer = await caller.call(solanaFeePayerMethod, [
      { policyId: 'wallet', serializedTransaction: getBase64Decoder().decode(bytes) },
    ])
    expect(readonlyPayer.body.error).toEqual({
      code: -32602,
      message: 'serializedTransaction: its first account must be a writable signer, the fee payer',
    })
  })

  it('a transaction tampered with after sponsorship (amount changed, re-signed by the user) fails signature verification', async () => {
    const caller = await signIn()
    const user = caller.solana
    const friend = await generateKeyPairSigner()
    devnet.svm.airdrop(user.address, lamports(5_000_000n))
    const build = (amount: bigint) =>
      buildMessage(caller, 0, sponsor, [
        getTransferSolInstruction({ source: user, destination: friend.address, amount }),
      ])
    const sponsored = await sponsorOrThrow(
      caller,
      await partiallySignTransactionMessageWithSigners(await build(1_000_000n)),
    )
    const tampered = await partiallySignTransactionMessageWithSigners(await build(4_000_000n))
    const forged: Transaction = {
      ...tampered,
      signatures: { ...tampered.signatures, [sponsor]: sponsored.signatures[sponsor] ?? null },
    }
    const sponsorBefore = devnet.balanceOf(sponsor)
    const answer = await send(caller, forged)
    expect(answer.body.error).toEqual({ code: -32003, message: 'Transaction signature verification failure' })
    expect(devnet.balanceOf(friend.address)).toBe(0n)
    expect(devnet.balanceOf(sponsor)).toBe(sponsorBefore)
  })

  it('answers a failing transaction as a node does in preflight (-32002 with logs), charging nobody', async () => {
    const caller = await signIn()
    const user = caller.solana
    const friend = await generateKeyPairSigner()
    devnet.svm.airdrop(user.address, lamports(1_000_000n))
    // More than the user has.
    const message = await buildMessage(caller, 0, sponsor, [
      getTransferSolInstruction({ source: user, destination: friend.address, amount: 2_000_000n }),
    ])
    const sponsored = await sponsorOrThrow(caller, await partiallySignTransactionMessageWithSigners(message))
    const sponsorBefore = devnet.balanceOf(sponsor)
    const answer = await send(caller, sponsored)
    expect(answer.body.error?.code).toBe(-32002)
    expect(answer.body.error?.message).toMatch(/^Transaction simulation failed: /)
    expect(answer.body.error?.data?.logs).toEqual(
      expect.arrayContaining([expect.stringContaining('insufficient lamports')]),
    )
    expect(devnet.balanceOf(sponsor)).toBe(sponsorBefore)
  })

  it('answers the read methods in Solana JSON-RPC shapes, caps airdrops, and has no other methods', async () => {
    const caller = await signIn()
    const { value } = await caller.rpc.getLatestBlockhash().send()
    expect(value.blockhash).toBe(devnet.latestBlockhash())
    expect(value.lastValidBlockHeight).toBe((await caller.rpc.getBlockHeight().send()) + 150n)
    expect(await caller.rpc.getMinimumBalanceForRentExemption(0n).send()).toBe(890_880n)
    const { value: accounts } = await caller.rpc
      .getMultipleAccounts([sponsor, (await generateKeyPairSigner()).address], { encoding: 'base64' })
      .send()
    expect(accounts[0]?.lamports).toBe(devnet.balanceOf(sponsor))
    expect(accounts[1]).toBeNull()
    const tooMuch = await caller.call('requestAirdrop', [sponsor, 10_000_000_001])
    expect(tooMuch.body.error).toMatchObject({ code: -32602 })
    const unknown = await caller.call('getProgramAccounts', [systemProgram])
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32601 } })
    expect(unknown.status).toBe(200)
  })

  it('answers 401 signed out and 403 without the CSRF header, before any method runs', async () => {
    const caller = await signIn()
    const signedOut = await caller.call('getSlot', [], { signedIn: false })
    expect(signedOut.status).toBe(401)
    const noCsrf = await caller.call('getSlot', [], { withCsrf: false })
    expect(noCsrf.status).toBe(403)
    const fine = await caller.call('getSlot', [])
    expect(fine.status).toBe(200)
  })

  it('answers 503 "Solana is not configured" without a node or the LiteSVM', async () => {
    const bare = await buildTestApp()
    try {
      const user = await getOrCreateUser(bare.database.db, { address: `0x${'12'.repeat(20)}` })
      const { token } = await createSession(bare.database.db, { userId: user.id })
      const response = await bare.app.inject({
        method: 'POST',
        url: '/api/solana',
        payload: { jsonrpc: '2.0', id: 1, method: 'getSlot', params: [] },
        cookies: { csrf_token: csrf, ql_session: token },
        headers: { 'x-csrf-token': csrf },
      })
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toBe('Solana is not configured on this server.')
    } finally {
      await bare.close()
    }
  })
})

describe('POST /api/solana with SOLANA_RPC_URL (production)', () => {
  it('relays the wallet methods to the node as they came, and keeps requestAirdrop and the rest to itself', async () => {
    const received: { method: string; params: unknown }[] = []
    const node = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      request.on('end', () => {
        const payload = JSON.parse(body) as { id: number; method: string; params: unknown }
        received.push({ method: payload.method, params: payload.params })
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify({ jsonrpc: '2.0', id: payload.id, result: 4242 }))
      })
    })
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    const port = (node.address() as AddressInfo).port
    const relayApp = await buildTestApp({ solanaRpcUrl: `http://127.0.0.1:${port}/rpc` })
    try {
      expect(relayApp.app.solana.devnet).toBeUndefined()
      const user = await getOrCreateUser(relayApp.database.db, { address: `0x${'34'.repeat(20)}` })
      const { token } = await createSession(relayApp.database.db, { userId: user.id })
      const call = (method: string, params: unknown) =>
        relayApp.app.inject({
          method: 'POST',
          url: '/api/solana',
          payload: { jsonrpc: '2.0', id: 9, method, params },
          cookies: { csrf_token: csrf, ql_session: token },
          headers: { 'x-csrf-token': csrf },
        })
      const slot = await call('getSlot', [{ commitment: 'confirmed' }])
      expect(slot.json()).toEqual({ jsonrpc: '2.0', id: 9, result: 4242 })
      expect(received).toEqual([{ method: 'getSlot', params: [{ commitment: 'confirmed' }] }])
      const airdrop = await call('requestAirdrop', [`${'1'.repeat(32)}`, 1])
      expect(airdrop.json().error).toMatchObject({ code: -32601 })
      // No SOLANA_SPONSOR_KEY: nothing is sponsored, and says so.
      const sponsor = await call(solanaFeePayerMethod, [
        { policyId: 'wallet', serializedTransaction: 'AA==' },
      ])
      expect(sponsor.statusCode).toBe(503)
      expect(sponsor.json().error.message).toBe('Solana fee sponsorship is not configured on this server.')
      expect(received).toHaveLength(1)
    } finally {
      await relayApp.close()
      await new Promise((resolve) => node.close(resolve))
    }
  })
})
