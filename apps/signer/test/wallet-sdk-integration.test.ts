// The wallet SDK (packages/wallet) against the real signer (the standalone app: /signer/v1 behind the
// CSRF check and rate limits the app server mounts it behind too, PGlite), on an ephemeral port: sign-up by e-mail code, then every kind of
// signature checked with viem (and ed25519 for Solana), export bundles opened as the export frame
// opens them. It lives here, not in the SDK, because a package depends on no app (docs/decisions/0016).
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { deployDevnetChain } from '@quicklinks/devnet/deploy-devnet-chain'
import { devnetAccountCount, devnetChains, devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import type { DeployedDevnetChain } from '@quicklinks/devnet/devnet-deployment'
import { type AltoProcess, spawnAlto } from '@quicklinks/devnet/spawn-alto'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import {
  buildActivityBody,
  describeExportActivity,
  type ExportTarget,
} from '@quicklinks/protocol/frame-only-activities'
import { createLogger } from '@quicklinks/runtime/create-logger'
import { createDatabaseClient, type DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { createKeyStamper } from '@quicklinks/wallet/create-key-stamper'
import type { ExportResult } from '@quicklinks/wallet/signer-client'
import { createSignerStore, type SignerStore } from '@quicklinks/wallet/signer-store'
import { createSmartWallet } from '@quicklinks/wallet/smart-accounts/create-smart-wallet'
import { signSponsoredSolanaTransaction } from '@quicklinks/wallet/solana/solana-fee-payer'
import { base58 } from '@scure/base'
import {
  appendTransactionMessageInstruction,
  compileTransaction,
  createSolanaRpcFromTransport,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  lamports,
  none,
  partiallySignTransaction,
  pipe,
  type RpcTransport,
  type Signature,
  type Address as SolanaAddress,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signAndSendTransactionMessageWithSigners,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  AccountState,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { FailedTransactionMetadata, LiteSVM } from 'litesvm'
import {
  createTestClient,
  http,
  parseEther,
  publicActions,
  recoverTransactionAddress,
  type TransactionSerialized,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { recoverAuthorizationAddress } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../src/build-signer-app.ts'
import { parseSignerEnv, type SignerProcessConfig } from '../src/config/signer-env.ts'
import { openExportBundle } from '../src/crypto/bundles/open-export-bundle.ts'
import { migrateSignerDatabase } from '../src/db/migrate-signer-database.ts'
import { signerActivities } from '../src/db/signer-schema.ts'
import { readCode } from './build-signer-test-app.ts'
import { createTestSignerClient } from './create-test-signer-client.ts'

type Mail = { to: string; subject: string; text: string; html: string }

let database: DatabaseClient
let app: FastifyInstance
let store: SignerStore
const mails: Mail[] = []

/** The servers' shared environment parsing, on a throw-away data dir, with no dev mode, mail or SMS. */
function createConfig(): SignerProcessConfig {
  return parseSignerEnv({
    PORT: '0',
    FRAMES_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ql-wallet-test-')),
    PUBLIC_ORIGIN: 'http://localhost:3999',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000',
    SIGNER_MASTER_KEY: randomBytes(32).toString('hex'),
  })
}

/** The 6-digit code of the newest mail to `to`. */
function readCodeMailedTo(to: string): string {
  return readCode(mails.findLast((candidate) => candidate.to === to)?.text ?? '')
}

async function createStore(baseUrl: string): Promise<SignerStore> {
  const client = await createTestSignerClient(baseUrl)
  return createSignerStore({ client, stamper: createKeyStamper(), storage: null, eventTarget: null })
}

beforeAll(async () => {
  database = await createDatabaseClient({ kind: 'pglite' })
  await migrateSignerDatabase(database)
  app = await buildSignerApp(createConfig(), {
    database,
    logger: createLogger('silent'),
    delivery: {
      sendEmail: async (mail) => void mails.push(mail),
      sendSms: async () => undefined,
    },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  store = await createStore(`http://127.0.0.1:${port}`)
})

afterAll(async () => {
  store?.destroy()
  await app?.close()
  await database?.close()
})

/** The signed-in user's finished signing activities at the signer. */
async function countSigningActivities(): Promise<number> {
  const orgId = store.getState().user?.orgId ?? ''
  const rows = await database.db
    .select({ type: signerActivities.type })
    .from(signerActivities)
    .where(eq(signerActivities.organizationId, orgId))
  return rows.filter((row) => row.type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2').length
}

function expectExecuted(result: ReturnType<LiteSVM['sendTransaction']>): void {
  if (result instanceof FailedTransactionMetadata) throw new Error(`transaction failed: ${result.toString()}`)
}

/** A kit RPC whose `sendTransaction` executes on `svm` (answering the transaction's signature). */
function createLiteSvmRpc(svm: LiteSVM) {
  const transport: RpcTransport = async <TResponse>({ payload }: { payload: unknown }) => {
    const { id, method, params } = payload as { id: number; method: string; params: [string] }
    if (method !== 'sendTransaction') throw new Error(`${method} is not served here`)
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(params[0]))
    const result = svm.sendTransaction(transaction)
    const answer =
      result instanceof FailedTransactionMetadata
        ? { jsonrpc: '2.0', id, error: { code: -32002, message: result.toString() } }
        : { jsonrpc: '2.0', id, result: getSignatureFromTransaction(transaction) }
    return answer as TResponse
  }
  return createSolanaRpcFromTransport(transport)
}

/** An initialised SPL token account, written straight into the SVM. */
function setTokenAccount(
  svm: LiteSVM,
  input: { address: SolanaAddress; mint: SolanaAddress; owner: SolanaAddress; amount: bigint },
): void {
  svm.setAccount({
    address: input.address,
    data: new Uint8Array(
      getTokenEncoder().encode({
        mint: input.mint,
        owner: input.owner,
        amount: input.amount,
        delegate: none(),
        state: AccountState.Initialized,
        isNative: none(),
        delegatedAmount: 0n,
        closeAuthority: none(),
      }),
    ),
    executable: false,
    lamports: lamports(svm.minimumBalanceForRentExemption(165n)),
    programAddress: TOKEN_PROGRAM_ADDRESS,
    space: 165n,
  })
}

function readTokenAmount(svm: LiteSVM, address: SolanaAddress): bigint {
  const account = svm.getAccount(address)
  if (!account.exists) throw new Error(`no token account ${address}`)
  return getTokenDecoder().decode(account.data).amount
}

const email = 'ada@example.com'
const newEmail = 'ada.lovelace@example.com'

describe('wallet SDK on the real signer', () => {
  it('signs a new user up with the e-mail code', async () => {
    await store.getState().authenticateWithEmail({ email })
    expect(store.getState()).toMatchObject({ status: 'AWAITING_EMAIL_AUTH', error: null })
    await store.getState().submitOtpCode(readCodeMailedTo(email))
    const { status, isNewUser, user } = store.getState()
    expect({ status, isNewUser }).toEqual({ status: 'CONNECTED', isNewUser: true })
    expect(user).toMatchObject({ email, address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) })
  })

  it('signs a message that verifies to the user’s address', async () => {
    const { user } = store.getState()
    const account = store.getState().toViemAccount()
    const signature = await account.signMessage({ message: 'Sign in to Quick Links' })
    expect(
      await verifyMessage({ address: user?.address ?? '0x', message: 'Sign in to Quick Links', signature }),
    ).toBe(true)
  })

  it('signs typed data that verifies to the user’s address', async () => {
    const typedData = {
      domain: { name: 'Quick Links', version: '1', chainId: 8453 },
      types: { Payment: [{ name: 'amount', type: 'uint256' }] },
      primaryType: 'Payment',
      message: { amount: 42n },
    } as const
    const signature = await store.getState().toViemAccount().signTypedData(typedData)
    const address = store.getState().user?.address ?? '0x'
    expect(await verifyTypedData({ ...typedData, address, signature })).toBe(true)
  })

  it('signs a transaction that recovers to the user’s address', async () => {
    const serialized = await store
      .getState()
      .toViemAccount()
      .signTransaction({
        chainId: 8453,
        type: 'eip1559',
        to: '0x000000000000000000000000000000000000dEaD',
        value: parseEther('0.001'),
        nonce: 0,
        gas: 21_000n,
        maxFeePerGas: 1_000_000_000n,
        maxPriorityFeePerGas: 1_000_000n,
      })
    expect(
      await recoverTransactionAddress({ serializedTransaction: serialized as TransactionSerialized }),
    ).toBe(store.getState().user?.address)
  })

  it('signs an EIP-7702 authorization that recovers to the user’s address', async () => {
    const signAuthorization = store.getState().toViemAccount().signAuthorization
    if (signAuthorization === undefined) throw new Error('the account cannot sign authorizations')
    const authorization = await signAuthorization({
      chainId: 8453,
      address: '0x000000000000000000000000000000000000bEEF',
      nonce: 1,
    })
    expect(await recoverAuthorizationAddress({ authorization })).toBe(store.getState().user?.address)
  })

  it('signs a Solana message that verifies with ed25519', async () => {
    const message = new TextEncoder().encode('hello solana')
    const signature = await store.getState().signSolanaMessage(message)
    const solanaAddress = store.getState().user?.solanaAddress ?? ''
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, base58.decode(solanaAddress))).toBe(true)
  })

  it('signs legacy and version-0 transactions with its kit signer that execute on LiteSVM, one activity each', async () => {
    const svm = new LiteSVM()
    const signer = store.getState().toSolanaSigner()
    const recipient = await generateKeyPairSigner()
    svm.airdrop(signer.address, lamports(1_000_000_000n))
    const activitiesBefore = await countSigningActivities()
    const transfer = getTransferSolInstruction({
      source: signer,
      destination: recipient.address,
      amount: 1_000_000n,
    })
    const legacy = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (draft) => setTransactionMessageFeePayerSigner(signer, draft),
      (draft) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(draft),
      (draft) => appendTransactionMessageInstruction(transfer, draft),
    )
    const versioned = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(signer, draft),
      (draft) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(draft),
      (draft) => appendTransactionMessageInstruction(transfer, draft),
    )
    for (const transaction of [
      await signTransactionMessageWithSigners(legacy),
      await signTransactionMessageWithSigners(versioned),
    ]) {
      const before = svm.getBalance(signer.address) ?? 0n
      expectExecuted(svm.sendTransaction(transaction))
      // The user paid the transfer and 5,000 lamports for its one signature.
      expect(svm.getBalance(signer.address)).toBe(before - 1_000_000n - 5_000n)
    }
    expect(svm.getBalance(recipient.address)).toBe(2_000_000n)
    expect((await countSigningActivities()) - activitiesBefore).toBe(2)
  })

  it('signs and sends with kit’s signAndSendTransactionMessageWithSigners through an RPC (LiteSVM behind it)', async () => {
    const svm = new LiteSVM()
    const signer = store.getState().toSolanaSigner({ rpc: createLiteSvmRpc(svm) })
    const recipient = await generateKeyPairSigner()
    svm.airdrop(signer.address, lamports(1_000_000_000n))
    const signatureBytes = await signAndSendTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(signer, draft),
        (draft) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(draft),
        (draft) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({ source: signer, destination: recipient.address, amount: 2_000_000n }),
            draft,
          ),
      ),
    )
    expect(svm.getBalance(recipient.address)).toBe(2_000_000n)
    expect(svm.getBalance(signer.address)).toBe(1_000_000_000n - 2_000_000n - 5_000n)
    const executed = svm.getTransaction(getBase58Decoder().decode(signatureBytes) as Signature)
    expect(executed).not.toBeNull()
    expect(executed).not.toBeInstanceOf(FailedTransactionMetadata)
  })

  it('a transaction changed after the SDK signed it does not execute', async () => {
    const svm = new LiteSVM()
    const signer = store.getState().toSolanaSigner()
    const recipient = await generateKeyPairSigner()
    svm.airdrop(signer.address, lamports(1_000_000_000n))
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(signer, draft),
      (draft) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(draft),
      (draft) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: signer, destination: recipient.address, amount: 1_000_000n }),
          draft,
        ),
    )
    const signed = await signTransactionMessageWithSigners(message)
    // The same signature over a message sending 100 times as much.
    const raised = compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(signer, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash(message.lifetimeConstraint, draft),
        (draft) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({
              source: signer,
              destination: recipient.address,
              amount: 100_000_000n,
            }),
            draft,
          ),
      ),
    )
    const tampered = { ...raised, signatures: signed.signatures }
    expect(svm.sendTransaction(tampered)).toBeInstanceOf(FailedTransactionMetadata)
    expect(svm.getBalance(recipient.address)).toBeNull()
  })

  it('a user with 0 SOL sends SPL tokens, the sponsor (fee payer, signing first) paying the fee', async () => {
    const svm = new LiteSVM()
    const signer = store.getState().toSolanaSigner()
    const sponsor = await generateKeyPairSigner()
    svm.airdrop(sponsor.address, lamports(1_000_000_000n))
    const mint = await generateKeyPairSigner()
    const source = await generateKeyPairSigner()
    const destination = await generateKeyPairSigner()
    const recipient = await generateKeyPairSigner()
    svm.setAccount({
      address: mint.address,
      data: new Uint8Array(
        getMintEncoder().encode({
          mintAuthority: none(),
          supply: 1_000n,
          decimals: 0,
          isInitialized: true,
          freezeAuthority: none(),
        }),
      ),
      executable: false,
      lamports: lamports(svm.minimumBalanceForRentExemption(82n)),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: 82n,
    })
    setTokenAccount(svm, {
      address: source.address,
      mint: mint.address,
      owner: signer.address,
      amount: 1_000n,
    })
    setTokenAccount(svm, {
      address: destination.address,
      mint: mint.address,
      owner: recipient.address,
      amount: 0n,
    })
    expect(svm.getBalance(signer.address)).toBeNull()

    const sent = compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayer(sponsor.address, draft),
        (draft) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(draft),
        (draft) =>
          appendTransactionMessageInstruction(
            getTransferInstruction({
              source: source.address,
              destination: destination.address,
              authority: signer,
              amount: 300n,
            }),
            draft,
          ),
      ),
    )
    // The sponsor signs first, as the fee-payer endpoint answers; then the user through the SDK.
    const sponsored = await partiallySignTransaction([sponsor.keyPair], sent)
    const signed = await signSponsoredSolanaTransaction({
      signer,
      transaction: sponsored,
      sentTransaction: sent,
    })
    expectExecuted(svm.sendTransaction(signed.transaction))
    expect(svm.getBalance(sponsor.address)).toBe(1_000_000_000n - 10_000n)
    expect(svm.getBalance(signer.address)).toBeNull()
    expect(readTokenAmount(svm, source.address)).toBe(700n)
    expect(readTokenAmount(svm, destination.address)).toBe(300n)
  })

  it('a sponsored lamport transfer changes the user’s lamports by the amount only', async () => {
    const svm = new LiteSVM()
    const signer = store.getState().toSolanaSigner()
    const sponsor = await generateKeyPairSigner()
    const recipient = await generateKeyPairSigner()
    svm.airdrop(sponsor.address, lamports(1_000_000_000n))
    svm.airdrop(signer.address, lamports(3_000_000n))
    // kit's own flow: the sponsor's key pair signer as fee payer and the SDK's signer, both partial.
    const transaction = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 'legacy' }),
        (draft) => setTransactionMessageFeePayerSigner(sponsor, draft),
        (draft) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(draft),
        (draft) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({ source: signer, destination: recipient.address, amount: 1_000_000n }),
            draft,
          ),
      ),
    )
    expectExecuted(svm.sendTransaction(transaction))
    expect(svm.getBalance(signer.address)).toBe(2_000_000n)
    expect(svm.getBalance(recipient.address)).toBe(1_000_000n)
    expect(svm.getBalance(sponsor.address)).toBe(1_000_000_000n - 10_000n)
  })

  it('exports in Node with the key stamper, which holds its own keys (no app page to keep them from)', async () => {
    const { user } = store.getState()
    const config = await store.client.getSignerConfig()
    const { walletId } = await store.client.whoami(store.stamper, user?.orgId ?? '')
    const open = async (target: ExportTarget) => {
      const frameKey = p256.utils.randomSecretKey()
      const call = describeExportActivity(target, bytesToHex(p256.getPublicKey(frameKey, false)))
      const { activity } = await store.client.stampedRequest<ExportResult>(
        call.path,
        { type: call.type, organizationId: user?.orgId ?? '', parameters: call.parameters },
        store.stamper,
      )
      return openExportBundle({
        bundle: activity.result?.exportBundle ?? '',
        embeddedPrivateKey: frameKey,
        organizationId: user?.orgId ?? '',
        pinnedSignerPublicKey: config.exportSignerPublicKey,
      })
    }
    const mnemonic = new TextDecoder().decode(await open({ kind: 'SEED_PHRASE', walletId }))
    expect(mnemonicToAccount(mnemonic).address).toBe(user?.address)
    const privateKey = await open({ kind: 'PRIVATE_KEY', address: user?.address ?? '' })
    expect(privateKeyToAccount(`0x${bytesToHex(privateKey)}`).address).toBe(user?.address)
    // The store has no export to a key of the caller's choosing, only into the export frame.
    expect('requestExportBundle' in store.getState()).toBe(false)
  })

  it('changes the sign-in e-mail with codes from both addresses; the old one is told', async () => {
    const verify = async (contact: string) => {
      const { otpId } = await store.client.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact })
      return (await store.client.verifyOtp({ otpId, otpCode: readCodeMailedTo(contact) })).verificationToken
    }
    await expect(
      store.getState().updateContact({ channel: 'email', contact: ' ', verificationToken: 't' }),
    ).rejects.toThrow('Email must not be empty. Use removeEmail() to remove email auth.')
    await expect(
      store.getState().updateContact({ channel: 'sms', contact: '+14155550199', verificationToken: '' }),
    ).rejects.toThrow('Verification token is required to change phone number.')

    const verificationToken = await verify(newEmail)
    const previousContactVerificationToken = await verify(email)
    const user = await store.getState().updateContact({
      channel: 'email',
      contact: newEmail,
      verificationToken,
      previousContactVerificationToken,
    })
    expect(user.email).toBe(newEmail)
    expect(store.getState().user?.email).toBe(newEmail)
    expect(mails.at(-1)).toMatchObject({
      to: email,
      subject: 'Your Quick Links sign-in e-mail address was changed',
    })
    expect(store.getState().status).toBe('CONNECTED')
  })

  it('keeps the session when the signer refuses a contact change for its proof, not for its stamp', async () => {
    await expect(
      store
        .getState()
        .updateContact({ channel: 'email', contact: 'other@example.com', verificationToken: 'forged' }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'VERIFICATION_REFUSED' } })
    expect(store.getState().status).toBe('CONNECTED')
    expect(store.getState().user?.email).toBe(newEmail)
  })

  it('logs out, revoking the session key at the signer, then signs the same user back in', async () => {
    const { user } = store.getState()
    const address = user?.address
    // A whoami stamped before the logout: what a copy of the session key could still send.
    const body = buildActivityBody({
      type: 'ACTIVITY_TYPE_WHOAMI',
      organizationId: user?.orgId ?? '',
      parameters: {},
      timestampMs: store.client.serverNow(),
    })
    const copied = { path: 'whoami', body, stamp: await store.stamper.stamp(body) }
    const solanaSigner = store.getState().toSolanaSigner()
    await store.getState().logout()
    expect(store.getState()).toMatchObject({ status: 'DISCONNECTED', user: null })
    expect(() => store.getState().toViemAccount()).toThrow('Signer not authenticated')
    // The Solana signer made before checks the session again when it signs.
    expect(() => store.getState().toSolanaSigner()).toThrow('Must be authenticated!')
    await expect(
      solanaSigner.signMessages([{ content: new Uint8Array([1]), signatures: {} }]),
    ).rejects.toThrow('Must be authenticated!')
    await expect(store.client.postStampedCall(copied)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      userMessage: 'Your session has ended. Sign in again.',
      details: { reason: 'KEY_REVOKED' },
    })

    await store.getState().authenticateWithEmail({ email: newEmail })
    await store.getState().submitOtpCode(readCodeMailedTo(newEmail))
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', isNewUser: false, user: { address } })
  })

  it('changes the e-mail by code through sendVerificationCode, verifyCode and setEmail; refuses what the SDK documents', async () => {
    await expect(store.getState().verifyCode({ otpId: '', code: '123456' })).rejects.toThrow('Missing OTP ID')
    await expect(store.getState().setEmail({ email: '', verificationToken: 'token' })).rejects.toThrow(
      'Email must not be empty. Use removeEmail() to remove email auth.',
    )
    await expect(store.getState().setPhone({ phone: '+14155550199', verificationToken: '' })).rejects.toThrow(
      'Verification token is required to change phone number.',
    )
    const prove = async (contact: string) => {
      const { otpId } = await store.getState().sendVerificationCode({ channel: 'email', contact })
      return (await store.getState().verifyCode({ otpId, code: ` ${readCodeMailedTo(contact)} ` }))
        .verificationToken
    }
    const { otpId } = await store
      .getState()
      .sendVerificationCode({ channel: 'email', contact: 'x@example.com' })
    const code = readCodeMailedTo('x@example.com')
    await expect(
      store.getState().verifyCode({ otpId, code: code === '123456' ? '654321' : '123456' }),
    ).rejects.toMatchObject({ code: 'OTP_INVALID', details: { triesLeft: 2 } })

    const thirdEmail = 'countess@example.com'
    const verificationToken = await prove(thirdEmail)
    const previousContactVerificationToken = await prove(newEmail)
    const user = await store.getState().setEmail({
      email: thirdEmail,
      verificationToken,
      previousContactVerificationToken,
    })
    expect(user.email).toBe(thirdEmail)
    expect(store.getState()).toMatchObject({ status: 'CONNECTED', user: { email: thirdEmail } })
    expect(mails.at(-1)).toMatchObject({
      to: newEmail,
      subject: 'Your Quick Links sign-in e-mail address was changed',
    })
  })

  it('the first address, given up, signs up a new account in an organization of its own', async () => {
    const address = store.getState().user?.address
    const orgId = store.getState().user?.orgId
    await store.getState().logout()
    await store.getState().authenticateWithEmail({ email })
    await store.getState().submitOtpCode(readCodeMailedTo(email))
    const { status, isNewUser, user } = store.getState()
    expect({ status, isNewUser }).toEqual({ status: 'CONNECTED', isNewUser: true })
    expect(user?.address).not.toBe(address)
    expect(user?.orgId).not.toBe(orgId)
    expect(user?.email).toBe(email)
  })

  it('removeEmail refuses the only way to sign in and keeps the session and the e-mail', async () => {
    // A user of its own: this file's user has used up its addresses' code sends by now.
    const solo = await createStore(store.client.baseUrl.replace(/\/signer\/v1$/, ''))
    const soloEmail = 'solo@example.com'
    try {
      await solo.getState().authenticateWithEmail({ email: soloEmail })
      await solo.getState().submitOtpCode(readCodeMailedTo(soloEmail))
      const { otpId } = await solo.getState().sendVerificationCode({ channel: 'email', contact: soloEmail })
      const { verificationToken } = await solo
        .getState()
        .verifyCode({ otpId, code: readCodeMailedTo(soloEmail) })
      await expect(solo.getState().removeEmail({ verificationToken })).rejects.toMatchObject({
        code: 'CONFLICT',
        userMessage: 'This is your only way to sign in. Add another one before you remove it.',
      })
      expect(solo.getState()).toMatchObject({ status: 'CONNECTED', user: { email: soloEmail } })
      const methods = await solo.client.listAuthMethods(solo.stamper, solo.getState().user?.orgId ?? '')
      expect(methods.email).toBe(soloEmail)
    } finally {
      solo.destroy()
    }
  })
})

// The SDK's smart accounts owned by the signer's key (toViemAccount), on a real devnet chain
// (anvil, the devnet's ERC-4337 contracts) with a real Alto bundler: every signature, the user
// operations' and the EIP-7702 authorization's included, goes through the signer.
describe('smart accounts owned by the signer key', () => {
  let anvil: AnvilProcess | undefined
  let alto: AltoProcess | undefined
  let owner: SignerStore | undefined
  let chain: DeployedDevnetChain
  const chainId = 8453

  beforeAll(async () => {
    const [anvilPort, altoPort] = [await getFreePort(), await getFreePort()]
    anvil = await spawnAnvil({
      host: '127.0.0.1',
      port: anvilPort,
      chainId,
      mnemonic: devnetMnemonic,
      accountCount: devnetAccountCount,
    })
    chain = await deployDevnetChain({
      rpcUrl: anvil.rpcUrl,
      chain: { ...devnetChains[0], port: anvilPort },
    })
    alto = await spawnAlto({ host: '127.0.0.1', port: altoPort, rpcUrl: anvil.rpcUrl, chainId })
    owner = await createStore(store.client.baseUrl.replace(/\/signer\/v1$/, ''))
    await owner.getState().authenticateWithEmail({ email: 'smart@example.com' })
    await owner.getState().submitOtpCode(readCodeMailedTo('smart@example.com'))
  }, 180_000)

  afterAll(async () => {
    owner?.destroy()
    await alto?.stop()
    await anvil?.stop()
  })

  it('signs as the smart account (6492, then 1271) and sends user operations, as a smart account and as the EOA (7702)', async () => {
    if (!owner || !anvil || !alto) throw new Error('not started')
    const rpcUrl = anvil.rpcUrl
    const bundlerUrl = alto.bundlerUrl
    const { contracts } = chain
    const wallet = createSmartWallet({
      owner: owner.getState().toViemAccount(),
      chains: [
        {
          chainId,
          entryPoint: contracts.entryPointV08,
          accountFactory: contracts.accountFactory,
          multiOwnerAccountFactory: contracts.multiOwnerAccountFactory,
          simple7702Account: contracts.simple7702Account,
        },
      ],
      transports: () => ({ rpc: http(rpcUrl), bundler: http(bundlerUrl) }),
    })
    const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).extend(publicActions)
    const address = await wallet.getAddress()
    const message = 'Sign in to Quick Links'

    const before = await wallet.signMessage({ chainId, message })
    expect(await client.verifyMessage({ address, message, signature: before })).toBe(true)

    await client.setBalance({ address, value: parseEther('1') })
    const sent = await wallet.send({
      chainId,
      calls: [{ to: '0x000000000000000000000000000000000000dEaD', value: 1n }],
    })
    expect(sent.success).toBe(true)
    expect(await wallet.isDeployed(chainId)).toBe(true)
    const after = await wallet.signMessage({ chainId, message })
    expect(after).not.toBe(before)
    expect(await client.verifyMessage({ address, message, signature: after })).toBe(true)

    // EIP-7702: the signer signs the delegation the first user operation carries.
    const eoa = owner.getState().user?.address ?? '0x'
    await client.setBalance({ address: eoa, value: parseEther('1') })
    const delegated = await wallet.send({
      chainId,
      accountType: 'EIP7702',
      calls: [{ to: '0x000000000000000000000000000000000000dEaD', value: 1n }],
    })
    expect(delegated.success).toBe(true)
    expect(await client.getCode({ address: eoa })).toBe(
      `0xef0100${contracts.simple7702Account.slice(2).toLowerCase()}`,
    )
  })
})
