import type { EmailMessage } from '@quicklinks/runtime/delivery/create-delivery'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import { createSignerStore, type SignerStore } from '@quicklinks/wallet/signer-store'
import {
  requestSolanaFeePayer,
  SolanaSponsorshipRefusedError,
  signSponsoredSolanaTransaction,
  sponsoredTransactionChangedMessage,
  sponsorSolanaTransaction,
} from '@quicklinks/wallet/solana/solana-fee-payer'
import type { SolanaSigner } from '@quicklinks/wallet/solana/solana-signer'
import {
  type Address,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  createNoopSigner,
  createSolanaRpcFromTransport,
  createTransactionMessage,
  decompileTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
  partiallySignTransaction,
  pipe,
  type RpcTransport,
  type Signature,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Transaction,
} from '@solana/kit'
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget'
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCode } from '../../../signer/test/build-signer-test-app.ts'
import { createTestSignerClient } from '../../../signer/test/create-test-signer-client.ts'
import { devnetSolanaSponsorPolicy, devnetSolanaSponsorPolicyId } from '../../src/config/solana-env.ts'
import { buildTestApp, type TestApp } from '../build-test-app.ts'
import { type HttpSession, signInOverHttp } from '../sign-in-over-http.ts'

const email = 'sol.user@example.com'
const mails: EmailMessage[] = []

let testApp: TestApp
let origin: string
let store: SignerStore
let session: HttpSession
let rpc: ReturnType<typeof createAppSolanaRpc>
let solanaConfig: { rpcPath: string; sponsorAddress: Address; defaultPolicyId: string }

/** The 6-digit code of the newest mail to `to`. */
function readCodeMailedTo(to: string): string {
  return readCode(mails.findLast((candidate) => candidate.to === to)?.text ?? '')
}

/** The app session's headers: what every Solana call sends. */
function sessionHeaders(): Record<string, string> {
  return { cookie: session.cookie, 'x-csrf-token': session.csrf }
}

/**
 * kit's RPC client on the app's /api/solana, sending the app session's cookie and CSRF header. kit's
 * own HTTP transport refuses a `cookie` header (a browser's forbidden header, refused in Node too), so
 * this transport is fetch as that one sends: a JSON POST, bigints as JSON numbers.
 */
function createAppSolanaRpc(url: string) {
  const transport: RpcTransport = async <TResponse>({ payload }: { payload: unknown }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...sessionHeaders() },
      body: JSON.stringify(payload, (_key, value: unknown) =>
        typeof value === 'bigint' ? Number(value) : value,
      ),
    })
    if (!response.ok) throw new Error(`/api/solana answered ${response.status}: ${await response.text()}`)
    return (await response.json()) as TResponse
  }
  return createSolanaRpcFromTransport(transport)
}

async function createStore(baseUrl: string): Promise<SignerStore> {
  const client = await createTestSignerClient(baseUrl)
  return createSignerStore({ client, stamper: createKeyStamper(), storage: null, eventTarget: null })
}

async function balanceOf(address: Address): Promise<bigint> {
  return (await rpc.getBalance(address).send()).value
}

async function tokenBalanceOf(address: Address): Promise<bigint> {
  return BigInt((await rpc.getTokenAccountBalance(address).send()).value.amount)
}

/** Polls getSignatureStatuses until the transaction has a status; throws when it failed. */
async function waitForExecution(signature: Signature): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value
    if (status) {
      if (status.err !== null) throw new Error(`transaction failed: ${JSON.stringify(status.err)}`)
      return
    }
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error(`no status for ${signature}`)
}

async function sendAndConfirm(transaction: Transaction): Promise<Signature> {
  const signature = await rpc
    .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' })
    .send()
  await waitForExecution(signature)
  return signature
}

/** A transaction (version 0 unless `version`) of `instructions` with the latest blockhash, paid by `feePayer`. */
async function buildTransaction(
  feePayer: Address,
  instructions: Instruction[],
  version: 'legacy' | 0 = 0,
): Promise<Transaction> {
  const { value: blockhash } = await rpc.getLatestBlockhash().send()
  return compileTransaction(
    pipe(
      createTransactionMessage({ version }),
      (message) => setTransactionMessageFeePayer(feePayer, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
      (message) => appendTransactionMessageInstructions(instructions, message),
    ),
  )
}

function feePayerOf(transaction: Transaction): Address {
  const [feePayer] = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes).staticAccounts
  if (feePayer === undefined) throw new Error('no fee payer')
  return feePayer
}

/** 5,000 lamports a signature: what the LiteSVM charges the fee payer without a priority fee. */
function baseFeeOf(transaction: Transaction): bigint {
  return 5_000n * BigInt(Object.keys(transaction.signatures).length)
}

async function airdrop(to: Address, amount: bigint): Promise<void> {
  await waitForExecution(await rpc.requestAirdrop(to, lamports(amount)).send())
}

/**
 * A merchant (its own funded key pair) creates a mint and the associated token accounts of `owners`
 * and mints `amount` to the first; all through /api/solana. Answers the mint and the token accounts.
 */
async function setUpTokens(
  merchant: KeyPairSigner,
  owners: Address[],
  amount: bigint,
): Promise<{ mint: Address; accounts: Address[] }> {
  const mint = await generateKeyPairSigner()
  const space = BigInt(getMintSize())
  const rent = await rpc.getMinimumBalanceForRentExemption(space).send()
  const accounts = await Promise.all(
    owners.map(
      async (owner) =>
        (await findAssociatedTokenPda({ owner, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0],
    ),
  )
  const [first] = accounts
  if (first === undefined) throw new Error('no owner')
  const { value: blockhash } = await rpc.getLatestBlockhash().send()
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (message) => setTransactionMessageFeePayerSigner(merchant, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
      (message) =>
        appendTransactionMessageInstructions(
          [
            getCreateAccountInstruction({
              payer: merchant,
              newAccount: mint,
              lamports: rent,
              space,
              programAddress: TOKEN_PROGRAM_ADDRESS,
            }),
            getInitializeMint2Instruction({
              mint: mint.address,
              decimals: 6,
              mintAuthority: merchant.address,
            }),
            ...owners.map((owner, index) =>
              getCreateAssociatedTokenIdempotentInstruction({
                payer: merchant,
                ata: accounts[index] ?? first,
                owner,
                mint: mint.address,
              }),
            ),
            getMintToInstruction({ mint: mint.address, token: first, mintAuthority: merchant, amount }),
          ],
          message,
        ),
    ),
  )
  await sendAndConfirm(transaction)
  return { mint: mint.address, accounts }
}

beforeAll(async () => {
  // The app's public origin is where it listens: SIWE messages name it.
  const port = await getFreePort()
  origin = `http://127.0.0.1:${port}`
  testApp = await buildTestApp(
    {
      logLevel: 'silent',
      publicOrigin: origin,
      // The development LiteSVM and its generated sponsor, with dev mode's policy.
      solanaDevnet: true,
      solanaSponsorPolicies: [devnetSolanaSponsorPolicy],
      solanaSponsorDefaultPolicyId: devnetSolanaSponsorPolicyId,
    },
    {
      delivery: {
        sendEmail: async (mail) => void mails.push(mail),
        sendSms: async () => undefined,
      },
    },
  )
  await testApp.app.listen({ port, host: '127.0.0.1' })
  store = await createStore(origin)

  const config = (await (await fetch(`${origin}/api/config`)).json()) as {
    data: { solana: typeof solanaConfig | null }
  }
  if (config.data.solana === null) throw new Error('the app has no Solana')
  solanaConfig = config.data.solana
}, 120_000)

afterAll(async () => {
  store?.destroy()
  await testApp?.close()
})

describe('the wallet SDK with the app’s Solana endpoint and sponsor', () => {
  let signer: SolanaSigner
  let merchant: KeyPairSigner

  /** The SDK's whole sponsored flow, with the app session's headers, on the default policy. */
  function sponsor(transaction: Transaction, policyId = solanaConfig.defaultPolicyId) {
    return sponsorSolanaTransaction({
      rpcUrl: `${origin}${solanaConfig.rpcPath}`,
      policyId,
      transaction,
      signer,
      headers: sessionHeaders(),
    })
  }

  it('signs up by e-mail code, signs in to the app with the SDK’s EVM account, and reads the sponsor', async () => {
    await store.getState().authenticateWithEmail({ email })
    await store.getState().submitOtpCode(readCodeMailedTo(email))
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', isNewUser: true })
    const account = store.getState().toViemAccount()
    session = await signInOverHttp(origin, account)
    expect(session.address).toBe(store.getState().user?.address)
    rpc = createAppSolanaRpc(`${origin}${solanaConfig.rpcPath}`)

    signer = store.getState().toSolanaSigner()
    expect(signer.address).toBe(store.getState().user?.solanaAddress)
    expect(solanaConfig).toEqual({
      rpcPath: '/api/solana',
      sponsorAddress: testApp.app.solana.sponsor?.address,
      defaultPolicyId: devnetSolanaSponsorPolicyId,
    })
    merchant = await generateKeyPairSigner()
    await airdrop(merchant.address, 1_000_000_000n)
    expect(await balanceOf(merchant.address)).toBe(1_000_000_000n)
    expect(await balanceOf(signer.address)).toBe(0n)
  })

  it('a user with 0 SOL sends a sponsored SPL transfer: it executes and the sponsor pays exactly the fee', async () => {
    const receiver = await generateKeyPairSigner()
    const {
      accounts: [userTokens, receiverTokens],
    } = await setUpTokens(merchant, [signer.address, receiver.address], 1_000_000n)
    if (userTokens === undefined || receiverTokens === undefined) throw new Error('no token accounts')
    expect(await tokenBalanceOf(userTokens)).toBe(1_000_000n)

    const sent = await buildTransaction(solanaConfig.sponsorAddress, [
      getTransferInstruction({
        source: userTokens,
        destination: receiverTokens,
        authority: signer,
        amount: 250_000n,
      }),
    ])
    const sponsorBefore = await balanceOf(solanaConfig.sponsorAddress)
    const signed = await sponsor(sent)
    expect(feePayerOf(signed.transaction)).toBe(solanaConfig.sponsorAddress)
    expect(await sendAndConfirm(signed.transaction)).toBe(signed.signature)

    expect(await tokenBalanceOf(userTokens)).toBe(750_000n)
    expect(await tokenBalanceOf(receiverTokens)).toBe(250_000n)
    expect(baseFeeOf(signed.transaction)).toBe(10_000n)
    expect(sponsorBefore - (await balanceOf(solanaConfig.sponsorAddress))).toBe(baseFeeOf(signed.transaction))
    expect(await balanceOf(signer.address)).toBe(0n)
  })

  it('a sponsored SOL transfer of all the user has: the user ends at 0, the receiver has the amount', async () => {
    const receiver = await generateKeyPairSigner()
    const amount = 3_000_000n
    await airdrop(signer.address, amount)
    expect(await balanceOf(signer.address)).toBe(amount)

    const sent = await buildTransaction(solanaConfig.sponsorAddress, [
      getTransferSolInstruction({ source: signer, destination: receiver.address, amount }),
    ])
    const sponsorBefore = await balanceOf(solanaConfig.sponsorAddress)
    const signed = await sponsor(sent)
    await sendAndConfirm(signed.transaction)

    expect(await balanceOf(signer.address)).toBe(0n)
    expect(await balanceOf(receiver.address)).toBe(amount)
    expect(sponsorBefore - (await balanceOf(solanaConfig.sponsorAddress))).toBe(baseFeeOf(signed.transaction))
  })

  it('a transaction the user built as his own fee payer: the server makes the sponsor pay, the SDK accepts it', async () => {
    const receiver = await generateKeyPairSigner()
    const amount = 2_000_000n
    await airdrop(signer.address, amount)
    const {
      accounts: [userTokens, receiverTokens],
    } = await setUpTokens(merchant, [signer.address, receiver.address], 500n)
    if (userTokens === undefined || receiverTokens === undefined) throw new Error('no token accounts')

    // Kit's usual shape: the SDK's signer as fee payer, a SOL and a token transfer it signs for.
    const sent = await buildTransaction(signer.address, [
      getTransferSolInstruction({ source: signer, destination: receiver.address, amount }),
      getTransferInstruction({
        source: userTokens,
        destination: receiverTokens,
        authority: signer,
        amount: 200n,
      }),
    ])
    expect(feePayerOf(sent)).toBe(signer.address)
    const sponsorBefore = await balanceOf(solanaConfig.sponsorAddress)
    const signed = await sponsor(sent)
    expect(feePayerOf(signed.transaction)).toBe(solanaConfig.sponsorAddress)
    expect(Object.keys(signed.transaction.signatures).sort()).toEqual(
      [solanaConfig.sponsorAddress, signer.address].sort(),
    )
    await sendAndConfirm(signed.transaction)

    expect(await balanceOf(signer.address)).toBe(0n)
    expect(await balanceOf(receiver.address)).toBe(amount)
    expect(await tokenBalanceOf(userTokens)).toBe(300n)
    expect(await tokenBalanceOf(receiverTokens)).toBe(200n)
    expect(sponsorBefore - (await balanceOf(solanaConfig.sponsorAddress))).toBe(baseFeeOf(signed.transaction))
  })

  it('a legacy transfer the user (0 SOL) paid for himself, named only as token authority: rewritten, accepted, and a changed answer is refused', async () => {
    const receiver = await generateKeyPairSigner()
    const {
      accounts: [userTokens, receiverTokens],
    } = await setUpTokens(merchant, [signer.address, receiver.address], 900n)
    if (userTokens === undefined || receiverTokens === undefined) throw new Error('no token accounts')
    expect(await balanceOf(signer.address)).toBe(0n)
    const transfer = (amount: bigint) =>
      getTransferInstruction({ source: userTokens, destination: receiverTokens, authority: signer, amount })
    const sent = await buildTransaction(signer.address, [transfer(400n)], 'legacy')
    const rpcUrl = `${origin}${solanaConfig.rpcPath}`

    // The two steps apart: the server's answer, then the SDK's check and signature.
    const sponsored = await requestSolanaFeePayer({
      rpcUrl,
      policyId: solanaConfig.defaultPolicyId,
      transaction: sent,
      headers: sessionHeaders(),
    })
    expect(feePayerOf(sponsored)).toBe(solanaConfig.sponsorAddress)
    const sponsoredMessage = decompileTransactionMessage(
      getCompiledTransactionMessageDecoder().decode(sponsored.messageBytes),
    )
    expect(sponsoredMessage.version).toBe('legacy')

    // What a dishonest sponsor could answer instead, signed by the real sponsor key: another amount,
    // another lifetime, another instruction added. The SDK signs none of them.
    const sponsorKey = testApp.app.solana.sponsor
    if (sponsorKey === undefined) throw new Error('no sponsor')
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const dishonest = [
      await buildTransaction(solanaConfig.sponsorAddress, [transfer(900n)], 'legacy'),
      compileTransaction(
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash(merchant.address), lastValidBlockHeight: latest.lastValidBlockHeight },
          sponsoredMessage,
        ),
      ),
      await buildTransaction(
        solanaConfig.sponsorAddress,
        [transfer(400n), getSetComputeUnitPriceInstruction({ microLamports: 1_000_000n })],
        'legacy',
      ),
    ]
    for (const changed of dishonest) {
      await expect(
        signSponsoredSolanaTransaction({
          signer,
          transaction: await partiallySignTransaction([sponsorKey.keyPair], changed),
          sentTransaction: sent,
        }),
      ).rejects.toThrow(sponsoredTransactionChangedMessage)
    }

    const sponsorBefore = await balanceOf(solanaConfig.sponsorAddress)
    const signed = await signSponsoredSolanaTransaction({
      signer,
      transaction: sponsored,
      sentTransaction: sent,
    })
    await sendAndConfirm(signed.transaction)
    expect(await tokenBalanceOf(userTokens)).toBe(500n)
    expect(await tokenBalanceOf(receiverTokens)).toBe(400n)
    expect(await balanceOf(signer.address)).toBe(0n)
    expect(sponsorBefore - (await balanceOf(solanaConfig.sponsorAddress))).toBe(baseFeeOf(signed.transaction))
  })

  it('a policy refusal reaches the SDK as SolanaSponsorshipRefusedError with its reason, and nothing is sent', async () => {
    const receiver = await generateKeyPairSigner()
    const transfer = await buildTransaction(solanaConfig.sponsorAddress, [
      getTransferSolInstruction({ source: signer, destination: receiver.address, amount: 1_000_000n }),
    ])
    const unknown = await sponsor(transfer, 'no-such-policy').catch((error: unknown) => error)
    expect(unknown).toBeInstanceOf(SolanaSponsorshipRefusedError)
    expect(unknown).toMatchObject({
      reason: 'UNKNOWN_POLICY',
      walletCode: 'SPONSORSHIP_REFUSED',
      message: 'No Solana sponsorship policy is named "no-such-policy"',
    })

    // A transfer out of the sponsor's own account, the sponsor named as its source.
    const theft = await buildTransaction(solanaConfig.sponsorAddress, [
      getTransferSolInstruction({
        source: createNoopSigner(solanaConfig.sponsorAddress),
        destination: signer.address,
        amount: 1_000_000n,
      }),
    ])
    const sponsorBefore = await balanceOf(solanaConfig.sponsorAddress)
    const refused = await sponsor(theft).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(SolanaSponsorshipRefusedError)
    expect(refused).toMatchObject({
      reason: 'SPONSOR_ACCOUNT_USED',
      data: { sponsorAddress: solanaConfig.sponsorAddress },
    })
    expect(await balanceOf(solanaConfig.sponsorAddress)).toBe(sponsorBefore)
    expect(await balanceOf(receiver.address)).toBe(0n)
  })

  it('after logging out of the signer, toSolanaSigner() answers “Must be authenticated!”', async () => {
    const before = signer
    await store.getState().logout()
    expect(store.getState().status).toBe('DISCONNECTED')
    expect(() => store.getState().toSolanaSigner()).toThrow('Must be authenticated!')
    // The signer made before checks the session again when it signs: the sponsor's answer stays unsigned.
    const sent = await buildTransaction(solanaConfig.sponsorAddress, [
      getTransferSolInstruction({ source: before, destination: merchant.address, amount: 1n }),
    ])
    await expect(sponsor(sent)).rejects.toThrow('Must be authenticated!')
  })
})
