import { solanaFeePayerMethod } from '@quicklinks/core/api/solana'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import {
  type Address,
  appendTransactionMessageInstructions,
  blockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from '@solana/kit'
import { getSetComputeUnitLimitInstruction } from '@solana-program/compute-budget'
import { getTransferSolInstruction } from '@solana-program/system'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { createEmbeddedWalletUser } from '../../../test/create-embedded-wallet-user.ts'
import type { SolanaSponsorPolicyConfig } from '../../config/solana-env.ts'
import { solanaFeeGrants, solanaFeePolicyGrants } from '../../db/schema.ts'
import { createSession } from '../../services/sessions/create-session.ts'
import { getOrCreateUser } from '../../services/users/get-or-create-user.ts'

// The attacks on the Solana fee sponsor that issue 29 names: paying for transactions that are not
// the signed-in user's, and many accounts (each under its own daily cap) together draining it.

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const systemProgram = '11111111111111111111111111111111'
const computeBudgetProgram = 'ComputeBudget111111111111111111111111111111'
/** Each test transfer has two signatures (sponsor and user) and no priority fee. */
const transferFee = 10_000n

const policies: SolanaSponsorPolicyConfig[] = [
  {
    id: 'wallet',
    programs: [systemProgram, computeBudgetProgram],
    maxFeeLamports: 50_000n,
    dailyFeeCapLamports: 1_000_000n,
    globalDailyFeeCapLamports: 1_000_000_000n,
  },
  // Each user could have 100 transfers a day; all users together get 3.
  {
    id: 'shared',
    programs: [systemProgram],
    maxFeeLamports: 50_000n,
    dailyFeeCapLamports: 1_000_000n,
    globalDailyFeeCapLamports: 3n * transferFee,
  },
]

type RpcBody = {
  result?: { serializedTransaction: string }
  error?: { code: number; message: string; data?: unknown }
}

/** SOLANA_SPONSOR_KEY's form: the 32-byte seed then the public key, in base58. */
async function createSponsorKey(): Promise<string> {
  const seed = crypto.getRandomValues(new Uint8Array(32))
  const { address } = await createKeyPairSignerFromPrivateKeyBytes(seed)
  const secretKey = new Uint8Array(64)
  secretKey.set(seed, 0)
  secretKey.set(getAddressEncoder().encode(address), 32)
  return getBase58Decoder().decode(secretKey)
}

describe('Solana fee sponsorship cannot be farmed', () => {
  let database: DatabaseClient
  // Two instances of the app on one database, one sponsor key: what a deployment behind a load balancer is.
  let instances: TestApp[]
  let sponsor: Address

  beforeAll(async () => {
    database = await createTestDatabase()
    const solanaSponsorKey = await createSponsorKey()
    instances = []
    for (let index = 0; index < 2; index += 1) {
      instances.push(
        await buildTestApp(
          {
            solanaDevnet: true,
            solanaSponsorKey,
            solanaSponsorPolicies: policies,
            solanaSponsorDefaultPolicyId: 'wallet',
          },
          { database },
        ),
      )
    }
    const address = instances[0]?.app.solana.sponsor?.address
    if (address === undefined || instances[1]?.app.solana.sponsor?.address !== address)
      throw new Error('no sponsor')
    sponsor = address
  }, 60_000)

  afterAll(async () => {
    for (const instance of instances ?? []) await instance.app.close()
    await database?.close()
  })

  /** A session of `userId` on instance `index`: asks the sponsor to pay for a transaction. */
  async function asker(userId: string, index = 0) {
    const instance = instances[index]
    if (instance === undefined) throw new Error(`no instance ${index}`)
    const { token } = await createSession(database.db, { userId })
    return async (transaction: Transaction, policyId = 'wallet'): Promise<RpcBody> => {
      const response = await instance.app.inject({
        method: 'POST',
        url: '/api/solana',
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: solanaFeePayerMethod,
          params: [{ policyId, serializedTransaction: getBase64EncodedWireTransaction(transaction) }],
        },
        cookies: { csrf_token: csrf, ql_session: token },
        headers: { 'x-csrf-token': csrf },
      })
      expect(response.statusCode).toBe(200)
      return response.json() as RpcBody
    }
  }

  /** A signed-in user whose embedded wallet's Solana account is a key pair the test holds. */
  async function signUp(index = 0) {
    const solana = await generateKeyPairSigner()
    const user = await createEmbeddedWalletUser(database.db, solana.address)
    return { user, solana, ask: await asker(user.id, index) }
  }

  /** A transaction of `instructions` paid by `feePayer`, signed by every signer among them. */
  async function build(feePayer: Address, instructions: Instruction[]): Promise<Transaction> {
    const lifetime = {
      blockhash: blockhash(instances[0]?.app.solana.devnet?.latestBlockhash() ?? ''),
      lastValidBlockHeight: 1_000n,
    }
    return partiallySignTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (message) => setTransactionMessageFeePayer(feePayer, message),
        (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
        (message) => appendTransactionMessageInstructions(instructions, message),
      ),
    )
  }

  const transferFrom = async (source: KeyPairSigner) =>
    getTransferSolInstruction({ source, destination: (await generateKeyPairSigner()).address, amount: 1n })

  async function grantsOf(userId: string) {
    return database.db.select().from(solanaFeeGrants).where(eq(solanaFeeGrants.userId, userId))
  }

  it("refuses a transaction whose only user-side signer is not the user's own Solana account, and grants nothing", async () => {
    const victim = await signUp()
    const attacker = await signUp()
    const stranger = await generateKeyPairSigner()

    // The attacker asks the sponsor to pay for a stranger's transfer, and for another user's.
    for (const signer of [stranger, victim.solana]) {
      const answer = await attacker.ask(await build(sponsor, [await transferFrom(signer)]))
      expect(answer.result).toBeUndefined()
      expect(answer.error).toEqual({
        code: -32001,
        message: `Only transactions your own Solana account signs are sponsored; ${signer.address} also signs this one`,
        data: { reason: 'NOT_YOUR_ACCOUNT', solanaAddress: attacker.solana.address, signer: signer.address },
      })
    }
    // The stranger as fee payer (the form the sponsor rewrites): refused the same way.
    const paidByStranger = await attacker.ask(await build(stranger.address, [await transferFrom(stranger)]))
    expect(paidByStranger.error).toMatchObject({
      data: { reason: 'NOT_YOUR_ACCOUNT', signer: stranger.address },
    })
    // The user's own account beside a stranger's: the stranger's part is not the user's to have paid.
    const cosigned = await attacker.ask(
      await build(sponsor, [await transferFrom(attacker.solana), await transferFrom(stranger)]),
    )
    expect(cosigned.error).toMatchObject({ data: { reason: 'NOT_YOUR_ACCOUNT', signer: stranger.address } })
    // Nobody's signature but the sponsor's: a fee for nothing.
    const unsigned = await attacker.ask(
      await build(sponsor, [getSetComputeUnitLimitInstruction({ units: 1_000 })]),
    )
    expect(unsigned.error).toEqual({
      code: -32001,
      message: `Only transactions your own Solana account (${attacker.solana.address}) signs are sponsored; it does not sign this one`,
      data: { reason: 'NOT_YOUR_ACCOUNT', solanaAddress: attacker.solana.address },
    })
    expect(await grantsOf(attacker.user.id)).toEqual([])

    // The same transfer from the attacker's own account is paid for: the rule refuses only what is not his.
    const own = await attacker.ask(await build(sponsor, [await transferFrom(attacker.solana)]))
    expect(own.error).toBeUndefined()
    expect(own.result?.serializedTransaction).toEqual(expect.any(String))
  })

  it('refuses every transaction of a user without an embedded-wallet Solana account (an outside wallet signed in with Ethereum)', async () => {
    const outsider = await getOrCreateUser(database.db, { address: `0x${'5a'.repeat(20)}` })
    const ask = await asker(outsider.id)
    const own = await generateKeyPairSigner()
    const answer = await ask(await build(sponsor, [await transferFrom(own)]))
    expect(answer.error).toEqual({
      code: -32001,
      message:
        'Only transactions your own Solana account signs are sponsored, and this account has no embedded-wallet Solana account',
      data: { reason: 'NOT_YOUR_ACCOUNT', solanaAddress: null },
    })
    expect(await grantsOf(outsider.id)).toEqual([])
  })

  it("many users together, racing on two instances, cannot pass the policy's global daily cap", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, (_, index) => signUp(index % 2)))
    const transactions = await Promise.all(
      users.map(async ({ solana }) => build(sponsor, [await transferFrom(solana)])),
    )
    const answers = await Promise.all(
      users.map(({ ask }, index) => ask(transactions[index] as Transaction, 'shared')),
    )

    expect(answers.filter((answer) => answer.error === undefined)).toHaveLength(3)
    const midnight = new Date()
    midnight.setUTCHours(24, 0, 0, 0)
    for (const answer of answers.filter((each) => each.error !== undefined)) {
      expect(answer.error).toEqual({
        code: -32001,
        message: `Policy shared's daily fee budget of 30000 lamports for all users is spent until ${midnight.toISOString()}`,
        data: {
          reason: 'POLICY_SPENT',
          scope: 'all-users',
          resetsAt: midnight.toISOString(),
          globalDailyFeeCapLamports: '30000',
        },
      })
    }
    const [budget] = await database.db
      .select()
      .from(solanaFeePolicyGrants)
      .where(eq(solanaFeePolicyGrants.policyId, 'shared'))
    expect(budget).toMatchObject({ grantedLamports: '30000', grants: 3 })
    // A refused user's own count was rolled back with the refusal: only the 3 granted users have one.
    const userRows = (await Promise.all(users.map(({ user }) => grantsOf(user.id)))).flat()
    expect(userRows.map((row) => row.grantedLamports)).toEqual(['10000', '10000', '10000'])

    // A new user the next minute is refused too: the budget is the policy's, not a user's.
    const late = await signUp(1)
    const refused = await late.ask(await build(sponsor, [await transferFrom(late.solana)]), 'shared')
    expect(refused.error).toMatchObject({ data: { reason: 'POLICY_SPENT', scope: 'all-users' } })
  })
})
