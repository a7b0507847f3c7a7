// The fee-sponsorship client against a real local HTTP server standing in for the sponsor's
// JSON-RPC endpoint; the sponsor signs with a real kit key pair.
import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ed25519 } from '@noble/curves/ed25519.js'
import { missingSponsoredTransactionMessage, solanaFeePayerMethod } from '@quicklinks/core/api/solana'
import {
  AccountRole,
  type Address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createKeyPairSignerFromBytes,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  type KeyPairSigner,
  partiallySignTransaction,
  type Transaction,
} from '@solana/kit'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  randomBlockhash,
  sponsoredTransferMessage,
  systemProgramAddress,
} from '../../test/solana-test-helpers.ts'
import {
  requestSolanaFeePayer,
  SolanaSponsorshipRefusedError,
  signatureNotNeededMessage,
  signSponsoredSolanaTransaction,
  sponsoredTransactionChangedMessage,
  sponsorSolanaTransaction,
} from './solana-fee-payer.ts'
import { createSolanaSigner } from './solana-signer.ts'

type Received = { headers: IncomingHttpHeaders; body: { method: string; id: number; params: unknown } }
type Answer = (request: Received) => Promise<{ status?: number; body: unknown }>

let server: Server
let rpcUrl: string
let answer: Answer
const received: Received[] = []

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const entry: Received = {
      headers: request.headers,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    }
    received.push(entry)
    const { status, body } = await answer(entry)
    response.writeHead(status ?? 200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/solana`
})

afterAll(async () => {
  server.close()
  await once(server, 'close')
})

let sponsor: KeyPairSigner
let user: KeyPairSigner
let recipient: KeyPairSigner
let recentBlockhash: ReturnType<typeof randomBlockhash>
beforeEach(async () => {
  received.length = 0
  recentBlockhash = randomBlockhash()
  sponsor = await generateKeyPairSigner()
  recipient = await generateKeyPairSigner()
  // The user signs through bytes, as the signer service does; a key pair stands in for the service.
  const secret = ed25519.utils.randomSecretKey()
  user = await createKeyPairSignerFromBytes(new Uint8Array([...secret, ...ed25519.getPublicKey(secret)]))
})

/** A user's transfer with the sponsor as fee payer, not yet signed by anyone. */
function userTransfer(lamports = 1_000_000n): Transaction {
  return compileTransaction(
    sponsoredTransferMessage({
      feePayer: sponsor.address,
      from: user,
      to: recipient.address,
      lamports,
      blockhash: recentBlockhash,
    }),
  )
}

function paramsOf(request: Received) {
  const [params] = request.body.params as [{ policyId: string; serializedTransaction: string }]
  return params
}

/** The sponsor's honest answer: the transaction it was sent, with its fee-payer signature. */
const sponsorSigns: Answer = async (request) => {
  const sent = getTransactionDecoder().decode(
    getBase64Encoder().encode(paramsOf(request).serializedTransaction),
  )
  const signed = await partiallySignTransaction([sponsor.keyPair], sent)
  return {
    body: {
      jsonrpc: '2.0',
      id: request.body.id,
      result: { serializedTransaction: getBase64EncodedWireTransaction(signed) },
    },
  }
}

describe('requestSolanaFeePayer', () => {
  it('posts the fee-payer method with the policy and the wire transaction, with the caller’s headers', async () => {
    answer = sponsorSigns
    const transaction = userTransfer()
    const sponsored = await requestSolanaFeePayer({
      rpcUrl,
      policyId: 'policy-1',
      transaction,
      headers: { 'X-CSRF-Token': 'csrf-1' },
    })
    expect(received).toHaveLength(1)
    const [request] = received
    if (request === undefined) throw new Error('no request')
    expect(request.body).toMatchObject({ jsonrpc: '2.0', method: solanaFeePayerMethod })
    expect(request.headers['x-csrf-token']).toBe('csrf-1')
    expect(paramsOf(request)).toEqual({
      policyId: 'policy-1',
      serializedTransaction: getBase64EncodedWireTransaction(transaction),
    })
    const sponsorSignature = sponsored.signatures[sponsor.address]
    expect(sponsorSignature).toBeTruthy()
    expect(sponsored.signatures[user.address]).toBeNull()
  })

  it('throws "A sponsored-fee response must contain a serialized transaction" for an answer without one', async () => {
    answer = async (request) => ({ body: { jsonrpc: '2.0', id: request.body.id, result: {} } })
    await expect(
      requestSolanaFeePayer({ rpcUrl, policyId: 'policy-1', transaction: userTransfer() }),
    ).rejects.toThrow(missingSponsoredTransactionMessage)
    answer = async (request) => ({ body: { jsonrpc: '2.0', id: request.body.id, result: null } })
    const error = await requestSolanaFeePayer({
      rpcUrl,
      policyId: 'policy-1',
      transaction: userTransfer(),
    }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({
      message: missingSponsoredTransactionMessage,
      userMessage: missingSponsoredTransactionMessage,
    })
  })

  it('surfaces a JSON-RPC refusal with its message and reason', async () => {
    const message = 'The fee of 15000 lamports is above this policy’s cap of 10000 lamports.'
    answer = async (request) => ({
      body: {
        jsonrpc: '2.0',
        id: request.body.id,
        error: {
          code: -32001,
          message,
          data: { reason: 'FEE_OVER_CAP', feeLamports: 15000, maxFeeLamports: 10000 },
        },
      },
    })
    const error = await requestSolanaFeePayer({
      rpcUrl,
      policyId: 'policy-1',
      transaction: userTransfer(),
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SolanaSponsorshipRefusedError)
    expect(error).toMatchObject({
      message,
      userMessage: message,
      reason: 'FEE_OVER_CAP',
      walletCode: 'SPONSORSHIP_REFUSED',
      data: { reason: 'FEE_OVER_CAP', feeLamports: 15000, maxFeeLamports: 10000 },
    })
  })

  it('keeps the message of another JSON-RPC error, and the app’s error for a refused request', async () => {
    answer = async (request) => ({
      body: {
        jsonrpc: '2.0',
        id: request.body.id,
        error: { code: -32602, message: 'The transaction could not be read.' },
      },
    })
    await expect(
      requestSolanaFeePayer({ rpcUrl, policyId: 'policy-1', transaction: userTransfer() }),
    ).rejects.toMatchObject({
      message: 'The transaction could not be read.',
      details: { jsonRpcCode: -32602 },
    })
    answer = async () => ({
      status: 401,
      body: { error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' } },
    })
    await expect(
      requestSolanaFeePayer({ rpcUrl, policyId: 'policy-1', transaction: userTransfer() }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED', userMessage: 'Please sign in to continue.' })
  })
})

describe('sponsorSolanaTransaction', () => {
  /** The user's signer as the SDK builds it: bytes in, a 64-byte signature out. */
  function userSigner(calls: Uint8Array[]) {
    return createSolanaSigner({
      address: user.address,
      signBytes: async (bytes) => {
        calls.push(bytes)
        const [signatures] = await user.signMessages([{ content: bytes, signatures: {} }])
        return signatures?.[user.address] ?? new Uint8Array()
      },
    })
  }

  it('adds the user’s signature to the sponsor’s: fully signed, both signatures verify', async () => {
    answer = sponsorSigns
    const calls: Uint8Array[] = []
    const signed = await sponsorSolanaTransaction({
      rpcUrl,
      policyId: 'policy-1',
      transaction: userTransfer(),
      signer: userSigner(calls),
    })
    expect(calls).toHaveLength(1)
    const message = new Uint8Array(signed.transaction.messageBytes)
    for (const signer of [sponsor, user]) {
      const signature = signed.transaction.signatures[signer.address]
      expect(
        ed25519.verify(
          signature ?? new Uint8Array(),
          message,
          new Uint8Array(getBase58Encoder().encode(signer.address)),
        ),
      ).toBe(true)
    }
    expect(signed.wireTransaction).toBe(getBase64EncodedWireTransaction(signed.transaction))
  })

  it('signs nothing for a transaction that does not name the user as a signer', async () => {
    const stranger = await generateKeyPairSigner()
    const transaction = await partiallySignTransaction(
      [sponsor.keyPair],
      compileTransaction(
        sponsoredTransferMessage({
          feePayer: sponsor.address,
          from: stranger,
          to: recipient.address,
          lamports: 1n,
        }),
      ),
    )
    const calls: Uint8Array[] = []
    await expect(signSponsoredSolanaTransaction({ signer: userSigner(calls), transaction })).rejects.toThrow(
      signatureNotNeededMessage,
    )
    expect(calls).toHaveLength(0)
  })

  it('signs nothing when the sponsor answers another transaction than the one sent', async () => {
    // A sponsor that raised the amount the user sends.
    answer = async (request) => {
      const sent = getTransactionDecoder().decode(
        getBase64Encoder().encode(paramsOf(request).serializedTransaction),
      )
      const other = await partiallySignTransaction([sponsor.keyPair], userTransfer(5_000_000n))
      expect(other.messageBytes).not.toEqual(sent.messageBytes)
      return {
        body: {
          jsonrpc: '2.0',
          id: request.body.id,
          result: { serializedTransaction: getBase64EncodedWireTransaction(other) },
        },
      }
    }
    const calls: Uint8Array[] = []
    await expect(
      sponsorSolanaTransaction({
        rpcUrl,
        policyId: 'policy-1',
        transaction: userTransfer(),
        signer: userSigner(calls),
      }),
    ).rejects.toThrow(sponsoredTransactionChangedMessage)
    expect(calls).toHaveLength(0)
  })
  it('signs nothing when the sponsor makes an account writable that the user sent read-only', async () => {
    const watched = (await generateKeyPairSigner()).address
    /** The user's transfer plus an instruction that reads `watched` with `role`. */
    const withReader = (role: AccountRole.READONLY | AccountRole.WRITABLE) =>
      compileTransaction(
        appendTransactionMessageInstruction(
          { programAddress: systemProgramAddress, accounts: [{ address: watched as Address, role }] },
          sponsoredTransferMessage({
            feePayer: sponsor.address,
            from: user,
            to: recipient.address,
            lamports: 1_000_000n,
            blockhash: recentBlockhash,
          }),
        ),
      )
    answer = async (request) => {
      const promoted = await partiallySignTransaction([sponsor.keyPair], withReader(AccountRole.WRITABLE))
      return {
        body: {
          jsonrpc: '2.0',
          id: request.body.id,
          result: { serializedTransaction: getBase64EncodedWireTransaction(promoted) },
        },
      }
    }
    const calls: Uint8Array[] = []
    await expect(
      sponsorSolanaTransaction({
        rpcUrl,
        policyId: 'policy-1',
        transaction: withReader(AccountRole.READONLY),
        signer: userSigner(calls),
      }),
    ).rejects.toThrow(sponsoredTransactionChangedMessage)
    expect(calls).toHaveLength(0)
  })
})
