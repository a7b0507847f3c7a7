import { bytesToHex } from '@noble/hashes/utils.js'
import {
  missingSponsoredTransactionMessage,
  type SolanaSponsorRefusalReason,
  solanaFeePayerMethod,
  solanaSponsorRefusalReasons,
} from '@quicklinks/core/api/solana'
import { AppError, parseErrorBody } from '@quicklinks/core/app-error'
import {
  assertIsFullySignedTransaction,
  type Base64EncodedWireTransaction,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  decompileTransactionMessage,
  type FullySignedTransaction,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Instruction,
  isSignerRole,
  isWritableRole,
  type Signature,
  type Transaction,
} from '@solana/kit'
import { createWalletError } from '../wallet-error.ts'
import type { SolanaSigner } from './solana-signer.ts'

/** The JSON-RPC error code of a sponsor's refusal (packages/core/src/api/solana.ts). */
export const solanaSponsorRefusalCode = -32001

/** A sponsor answered a transaction whose instructions or lifetime are not those that were sent. */
export const sponsoredTransactionChangedMessage =
  'The sponsor changed the transaction it was asked to pay for'

/** The transaction given to sign names no signature of the user's account. */
export const signatureNotNeededMessage = 'This transaction does not need a signature from this account'

/** When the fee-payer call fails and its answer says nothing more. */
const feePayerFallbackMessage = 'Could not reach the Solana fee sponsor'

export { missingSponsoredTransactionMessage, type SolanaSponsorRefusalReason, solanaSponsorRefusalReasons }

/**
 * The Solana sponsor refused to pay a transaction's fee (its JSON-RPC error, code -32001): the
 * sponsor's message as `message` and `userMessage`, the rule in `reason` (one of
 * {@link solanaSponsorRefusalReasons}), and the error's whole `data` in `data` and `details`
 * (`programId`, `feeLamports`, `maxFeeLamports`, `resetsAt`…). Like the EVM SponsorshipRefusedError:
 * `walletCode` SPONSORSHIP_REFUSED, AppError code FORBIDDEN. Nothing was sent; the transaction can
 * still be sent with the user as fee payer.
 */
export class SolanaSponsorshipRefusedError extends AppError {
  override readonly name = 'SolanaSponsorshipRefusedError'
  readonly walletCode = 'SPONSORSHIP_REFUSED'
  readonly reason: SolanaSponsorRefusalReason
  readonly data: Readonly<Record<string, unknown>>

  constructor(input: {
    reason: SolanaSponsorRefusalReason
    message: string
    data?: Record<string, unknown>
    cause?: unknown
  }) {
    const data = { ...input.data, reason: input.reason }
    super('FORBIDDEN', {
      message: input.message,
      userMessage: input.message,
      details: data,
      ...(input.cause === undefined ? {} : { cause: input.cause }),
    })
    this.reason = input.reason
    this.data = data
  }
}

export type SolanaFeePayerRequest = {
  /** The chain's JSON-RPC endpoint that answers the fee-payer method, e.g. the app's `/api/solana`. */
  rpcUrl: string | URL
  /** The sponsorship policy's id. */
  policyId: string
  /**
   * The transaction to sponsor, legacy or version 0; its fee payer is the sponsor or the user (whom
   * the sponsor replaces). The user's own signature is not needed yet.
   */
  transaction: Transaction
  /** Default `globalThis.fetch`; the request is sent with `credentials: 'include'`. */
  fetch?: typeof globalThis.fetch
  /** Extra headers, e.g. the app's `X-CSRF-Token` in a browser (or a function answering them). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  signal?: AbortSignal
}

let nextRequestId = 1

/**
 * Asks a sponsor to pay a Solana transaction's fee (docs/signer.md#solana-signing): a JSON-RPC POST
 * of `quicklinks_requestFeePayer` with `[{policyId, serializedTransaction}]` (the wire transaction
 * in base64); resolves with the answer's `result.serializedTransaction` decoded: the transaction as
 * the sponsor signed it, its fee payer. Rejects with {@link SolanaSponsorshipRefusedError} for a
 * refusal, an SDK error with the JSON-RPC error's message (its `code` and `data` in `details`) for
 * another JSON-RPC error, the app's error for a refused HTTP request (401, 403 CSRF), and 'A
 * sponsored-fee response must contain a serialized transaction' for an answer without one.
 */
export async function requestSolanaFeePayer(request: SolanaFeePayerRequest): Promise<Transaction> {
  const fetchImpl = request.fetch ?? globalThis.fetch
  const extraHeaders = typeof request.headers === 'function' ? await request.headers() : request.headers
  const headers = new Headers(extraHeaders)
  headers.set('content-type', 'application/json')
  headers.set('accept', 'application/json')
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextRequestId++,
    method: solanaFeePayerMethod,
    params: [
      {
        policyId: request.policyId,
        serializedTransaction: getBase64EncodedWireTransaction(request.transaction),
      },
    ],
  })

  let response: Response
  try {
    response = await fetchImpl(request.rpcUrl, {
      method: 'POST',
      headers,
      body,
      credentials: 'include',
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    })
  } catch (error) {
    if (request.signal?.aborted) throw error
    throw createWalletError(feePayerFallbackMessage, { code: 'NETWORK', cause: error })
  }

  const text = await response.text()
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    answer = undefined
  }

  const rpcError = readJsonRpcError(answer)
  if (rpcError !== undefined) throw rpcError
  if (!response.ok) throw parseErrorBody(answer, response.status, feePayerFallbackMessage)

  const result =
    typeof answer === 'object' && answer !== null ? (answer as { result?: unknown }).result : undefined
  const serialized =
    typeof result === 'object' && result !== null
      ? (result as { serializedTransaction?: unknown }).serializedTransaction
      : undefined
  if (typeof serialized !== 'string' || serialized.length === 0) {
    throw createWalletError(missingSponsoredTransactionMessage)
  }
  try {
    return getTransactionDecoder().decode(getBase64Encoder().encode(serialized))
  } catch (error) {
    throw createWalletError(missingSponsoredTransactionMessage, { cause: error })
  }
}

/** A JSON-RPC error in the answer (numeric `code`), as the SDK's error; else undefined. */
function readJsonRpcError(answer: unknown): AppError | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const error = (answer as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return undefined
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown }
  if (typeof code !== 'number') return undefined
  const text = typeof message === 'string' && message.length > 0 ? message : feePayerFallbackMessage
  const dataRecord = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined
  const reason = solanaSponsorRefusalReasons.find((known) => known === dataRecord?.reason)
  if (code === solanaSponsorRefusalCode && reason !== undefined) {
    return new SolanaSponsorshipRefusedError({
      reason,
      message: text,
      ...(dataRecord === undefined ? {} : { data: dataRecord }),
      cause: error,
    })
  }
  return createWalletError(text, {
    cause: error,
    details: { jsonRpcCode: code, ...(dataRecord === undefined ? {} : { data: dataRecord }) },
  })
}

export type SignedSolanaTransaction = {
  /** Every signature in place (the sponsor's and the user's). */
  transaction: Transaction & FullySignedTransaction
  /** Its wire form in base64: what `sendTransaction` takes with `{encoding: 'base64'}`. */
  wireTransaction: Base64EncodedWireTransaction
  /** The transaction's id: its fee payer's signature. */
  signature: Signature
}

/**
 * Adds the user's signature to a transaction the sponsor signed and returns it fully signed, ready
 * for `sendTransaction`. With `sentTransaction` (the one given to {@link requestSolanaFeePayer}) it
 * first checks that the sponsor changed nothing but the fee payer: the same lifetime, the same
 * instructions (programs, accounts in order, data), a fee payer other than the user; else it rejects with
 * {@link sponsoredTransactionChangedMessage} and signs nothing. Rejects as `signer` does
 * ('Must be authenticated!'…), with {@link signatureNotNeededMessage} when the transaction names
 * no signature of the signer's account, and when a signature is still missing.
 */
export async function signSponsoredSolanaTransaction(input: {
  signer: SolanaSigner
  transaction: Transaction
  sentTransaction?: Transaction
  abortSignal?: AbortSignal
}): Promise<SignedSolanaTransaction> {
  const { signer, transaction } = input
  if (input.sentTransaction !== undefined) {
    assertSponsoredAsSent(input.sentTransaction, transaction, signer.address)
  }
  if (!Object.hasOwn(transaction.signatures, signer.address)) {
    throw createWalletError(signatureNotNeededMessage)
  }
  const [signatures] = await signer.signTransactions(
    [transaction],
    input.abortSignal === undefined ? undefined : { abortSignal: input.abortSignal },
  )
  const signed: Transaction = Object.freeze({
    ...transaction,
    signatures: Object.freeze({ ...transaction.signatures, ...signatures }),
  })
  assertIsFullySignedTransaction(signed)
  return {
    transaction: signed,
    wireTransaction: getBase64EncodedWireTransaction(signed),
    signature: getSignatureFromTransaction(signed),
  }
}

/**
 * The whole sponsored flow: {@link requestSolanaFeePayer}, then
 * {@link signSponsoredSolanaTransaction} checking the answer against what was sent. Resolves with
 * the fully signed transaction; send `wireTransaction` with the chain's `sendTransaction`.
 */
export async function sponsorSolanaTransaction(
  input: SolanaFeePayerRequest & { signer: SolanaSigner },
): Promise<SignedSolanaTransaction> {
  const { signer, ...request } = input
  const sponsored = await requestSolanaFeePayer(request)
  return signSponsoredSolanaTransaction({
    signer,
    transaction: sponsored,
    sentTransaction: request.transaction,
    ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
  })
}

type ComparableAccount = { address: string; isSigner: boolean; isWritable: boolean }
type ComparableInstruction = { programAddress: string; accounts: ComparableAccount[]; data: string }

function describeMessage(transaction: Transaction): {
  feePayer: string
  lifetime: string
  instructions: ComparableInstruction[]
} {
  const compiled: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime =
    getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
  const message = decompileTransactionMessage(compiled)
  return {
    feePayer: message.feePayer.address,
    lifetime: compiled.lifetimeToken,
    instructions: (message.instructions as readonly Instruction[]).map((instruction) => ({
      programAddress: instruction.programAddress,
      accounts: (instruction.accounts ?? []).map((account) => ({
        address: account.address,
        isSigner: isSignerRole(account.role),
        isWritable: isWritableRole(account.role),
      })),
      data: bytesToHex(new Uint8Array(instruction.data ?? [])),
    })),
  }
}

/**
 * The same program, data and accounts in order, no account gaining a privilege: a rebuilt message
 * may leave the former fee payer a writable signer or make it a read-only one, but the sponsor may
 * not make an account writable or a signer that was not.
 */
function isSameInstruction(before: ComparableInstruction, after: ComparableInstruction): boolean {
  return (
    before.programAddress === after.programAddress &&
    before.data === after.data &&
    before.accounts.length === after.accounts.length &&
    before.accounts.every((account, index) => {
      const other = after.accounts[index]
      return (
        other !== undefined &&
        other.address === account.address &&
        (account.isSigner || !other.isSigner) &&
        (account.isWritable || !other.isWritable)
      )
    })
  )
}

/** The sponsor may only have set itself as fee payer: the same lifetime and instructions, and not the user paying. */
function assertSponsoredAsSent(sent: Transaction, sponsored: Transaction, user: string): void {
  let same: boolean
  try {
    const before = describeMessage(sent)
    const after = describeMessage(sponsored)
    same =
      after.feePayer !== user &&
      before.lifetime === after.lifetime &&
      before.instructions.length === after.instructions.length &&
      before.instructions.every((instruction, index) => {
        const other = after.instructions[index]
        return other !== undefined && isSameInstruction(instruction, other)
      })
  } catch (error) {
    throw createWalletError(sponsoredTransactionChangedMessage, { cause: error })
  }
  if (!same) throw createWalletError(sponsoredTransactionChangedMessage)
}
