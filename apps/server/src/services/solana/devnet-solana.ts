import {
  type Address,
  address,
  type Blockhash,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  isAddress,
  lamports,
  type Signature,
  type Transaction,
} from '@solana/kit'
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import { formatUnits } from 'viem'
import { JsonRpcError, jsonRpcErrorCodes } from '../smart-accounts/json-rpc-error.ts'
import { decodeSolanaTransaction } from './decode-solana-transaction.ts'
import { getSolanaTransactionFee } from './get-solana-transaction-fee.ts'

/** The most one requestAirdrop gives on the development LiteSVM: 10 SOL. */
export const maxDevnetAirdropLamports = 10_000_000_000n

/** What the sponsor gets at start on the development LiteSVM: 1,000 SOL. */
const sponsorStartLamports = 1_000_000_000_000n

/** Blocks a blockhash stays valid for on Solana, for getLatestBlockhash's lastValidBlockHeight. */
const blockhashValidBlocks = 150n

/** Signature statuses the LiteSVM remembers, as a node keeps recent ones only. */
const maxRememberedStatuses = 10_000

type ExecutedTransaction = { slot: bigint; err: string | null }

/** Solana's JSON-RPC error for a transaction refused before execution (preflight). */
const preflightFailureCode = -32002
const signatureVerificationFailureCode = -32003

/**
 * The development Solana node: one in-process LiteSVM per server that answers the JSON-RPC methods
 * a wallet needs (docs/api.md#solana) in Solana JSON-RPC's own result shapes, so `createSolanaRpc`
 * of `@solana/kit` works against POST /api/solana. Transactions execute at once; their signature
 * statuses are 'finalized' in the same slot. Nothing persists across restarts.
 */
export class DevnetSolana {
  readonly svm: LiteSVM
  private readonly executed = new Map<string, ExecutedTransaction>()

  constructor(fundedAddresses: readonly Address[] = []) {
    this.svm = new LiteSVM()
    for (const each of fundedAddresses) this.svm.airdrop(each, lamports(sponsorStartLamports))
  }

  private get slot(): bigint {
    return this.svm.getClock().slot
  }

  private context<T>(value: T): { context: { slot: number; apiVersion: string }; value: T } {
    return { context: { slot: Number(this.slot), apiVersion: '2.2.0' }, value }
  }

  /**
   * Answers one JSON-RPC method with its `result`; rejects with JsonRpcError for unknown methods,
   * bad params, and transactions that fail preflight (-32002, `data.logs` and `data.err`) or
   * signature verification (-32003), as a Solana node does.
   */
  handle(method: string, params: readonly unknown[]): unknown {
    switch (method) {
      case 'getLatestBlockhash':
        return this.context({
          blockhash: this.svm.latestBlockhash(),
          lastValidBlockHeight: Number(this.slot + blockhashValidBlocks),
        })
      case 'isBlockhashValid':
        return this.context(params[0] === this.svm.latestBlockhash())
      case 'getSlot':
      case 'getBlockHeight':
        return Number(this.slot)
      case 'getBalance':
        return this.context(Number(this.svm.getBalance(addressParam(params[0])) ?? 0n))
      case 'getAccountInfo':
        return this.context(this.encodeAccount(addressParam(params[0]), encodingOf(params[1])))
      case 'getMultipleAccounts': {
        const addresses = params[0]
        if (!Array.isArray(addresses) || addresses.length > 100)
          throw invalidParams('expected up to 100 addresses')
        const encoding = encodingOf(params[1])
        return this.context(addresses.map((each) => this.encodeAccount(addressParam(each), encoding)))
      }
      case 'getMinimumBalanceForRentExemption': {
        const size = params[0]
        if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 10_485_760)
          throw invalidParams('expected a data length in bytes')
        return Number(this.svm.minimumBalanceForRentExemption(BigInt(size)))
      }
      case 'getFeeForMessage': {
        if (typeof params[0] !== 'string') throw invalidParams('expected a base64 message')
        try {
          const message = getCompiledTransactionMessageDecoder().decode(getBase64Encoder().encode(params[0]))
          if (message.version !== 'legacy' && message.version !== 0) return this.context(null)
          return this.context(Number(getSolanaTransactionFee(message).feeLamports))
        } catch {
          throw invalidParams('expected a base64 message')
        }
      }
      case 'getSignatureStatuses': {
        const signatures = params[0]
        if (!Array.isArray(signatures) || signatures.length > 256)
          throw invalidParams('expected up to 256 signatures')
        return this.context(
          signatures.map((signature) => {
            const executed = typeof signature === 'string' ? this.executed.get(signature) : undefined
            if (executed === undefined) return null
            return {
              slot: Number(executed.slot),
              confirmations: null,
              err: executed.err,
              confirmationStatus: 'finalized',
              status: executed.err === null ? { Ok: null } : { Err: executed.err },
            }
          }),
        )
      }
      case 'getTokenAccountBalance':
        return this.context(this.tokenBalance(addressParam(params[0])))
      case 'simulateTransaction': {
        const { transaction } = this.readTransaction(params)
        return this.context(summarizeSimulation(this.svm.simulateTransaction(transaction)))
      }
      case 'sendTransaction':
        return this.sendTransaction(params)
      case 'requestAirdrop': {
        const to = addressParam(params[0])
        const amount = params[1]
        if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0)
          throw invalidParams('expected a whole number of lamports')
        if (BigInt(amount) > maxDevnetAirdropLamports)
          throw invalidParams(`an airdrop gives at most ${maxDevnetAirdropLamports} lamports (10 SOL)`)
        const result = this.svm.airdrop(to, lamports(BigInt(amount)))
        if (result === null || result instanceof FailedTransactionMetadata) {
          throw new JsonRpcError({ code: -32603, message: 'The airdrop failed' })
        }
        return this.record(result, null)
      }
      default:
        throw new JsonRpcError({ code: jsonRpcErrorCodes.methodNotFound, message: 'Method not found' })
    }
  }

  private readTransaction(params: readonly unknown[]) {
    const encoded = params[0]
    const options = params[1]
    const encoding =
      typeof options === 'object' &&
      options !== null &&
      (options as { encoding?: unknown }).encoding === 'base64'
        ? 'base64'
        : 'base58'
    if (typeof encoded !== 'string') throw invalidParams('expected an encoded transaction')
    const decoded = decodeSolanaTransaction(encoded, encoding)
    if (typeof decoded === 'string') throw invalidParams(`failed to deserialize the transaction: ${decoded}`)
    // An empty slot travels as 64 zero bytes, which LiteSVM then rejects as a node would (SignatureFailure).
    const signatures = Object.fromEntries(
      Object.entries(decoded.transaction.signatures).map(([signer, signature]) => [
        signer,
        signature ?? new Uint8Array(64),
      ]),
    ) as Transaction['signatures']
    return { ...decoded, transaction: { ...decoded.transaction, signatures } }
  }

  /** Preflight (a simulation), then execution; answers the first signature in base58. */
  private sendTransaction(params: readonly unknown[]): string {
    const { transaction } = this.readTransaction(params)
    const simulated = this.svm.simulateTransaction(transaction)
    if (simulated instanceof FailedTransactionMetadata) {
      const err = describeError(simulated)
      if (err.startsWith('SignatureFailure')) {
        throw new JsonRpcError({
          code: signatureVerificationFailureCode,
          message: 'Transaction signature verification failure',
        })
      }
      throw new JsonRpcError({
        code: preflightFailureCode,
        message: `Transaction simulation failed: ${err}`,
        data: summarizeSimulation(simulated),
      })
    }
    const result = this.svm.sendTransaction(transaction)
    if (result instanceof FailedTransactionMetadata) {
      return this.record(result.meta(), describeError(result))
    }
    return this.record(result, null)
  }

  private record(meta: TransactionMetadata, err: string | null): string {
    const signature = getBase58Decoder().decode(meta.signature())
    // A long-running dev server keeps the newest statuses only (a Map iterates oldest first).
    if (this.executed.size >= maxRememberedStatuses) {
      const oldest = this.executed.keys().next().value
      if (oldest !== undefined) this.executed.delete(oldest)
    }
    this.executed.set(signature, { slot: this.slot, err })
    return signature
  }

  /** The account as getAccountInfo shows it, or null when it holds nothing. */
  private encodeAccount(at: Address, encoding: 'base64' | 'base58') {
    const account = this.svm.getAccount(at)
    if (!account.exists) return null
    const data =
      encoding === 'base58'
        ? getBase58Decoder().decode(account.data)
        : getBase64Decoder().decode(account.data)
    return {
      data: [data, encoding],
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: account.programAddress,
      rentEpoch: 0,
      space: account.data.length,
    }
  }

  /** An SPL token account's balance: amount (u64 at byte 64) and its mint's decimals (byte 44). */
  private tokenBalance(at: Address) {
    const account = this.svm.getAccount(at)
    if (!account.exists || account.data.length < 72) throw invalidParams('Invalid param: not a Token account')
    const data = new Uint8Array(account.data)
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    const amount = view.getBigUint64(64, true)
    const mint = this.svm.getAccount(address(getBase58Decoder().decode(data.subarray(0, 32))))
    const decimals = mint.exists && mint.data.length > 44 ? (mint.data[44] ?? 0) : 0
    const uiAmountString = formatUnits(amount, decimals)
    return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
  }

  /** The sponsor's lamports (tests and start-up checks). */
  balanceOf(at: Address): bigint {
    return this.svm.getBalance(at) ?? 0n
  }

  latestBlockhash(): Blockhash {
    return this.svm.latestBlockhash()
  }

  statusOf(signature: Signature): ExecutedTransaction | undefined {
    return this.executed.get(signature)
  }
}

function addressParam(value: unknown): Address {
  if (typeof value !== 'string' || !isAddress(value))
    throw invalidParams('Invalid param: expected a base58 address')
  return value
}

function encodingOf(options: unknown): 'base64' | 'base58' {
  const encoding =
    typeof options === 'object' && options !== null ? (options as { encoding?: unknown }).encoding : undefined
  // jsonParsed falls back to base64, as a node does for accounts it cannot parse.
  return encoding === 'base58' ? 'base58' : 'base64'
}

/** A simulation as simulateTransaction answers it, and as a failed preflight's `data` carries it. */
function summarizeSimulation(simulated: ReturnType<LiteSVM['simulateTransaction']>) {
  const meta = simulated.meta()
  return {
    err: simulated instanceof FailedTransactionMetadata ? describeError(simulated) : null,
    logs: meta.logs(),
    accounts: null,
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    returnData: null,
  }
}

/** LiteSVM's error in Rust's debug form, e.g. "InsufficientFundsForRent { account_index: 2 }". */
function describeError(failed: FailedTransactionMetadata): string {
  const match = /err: (.*?), meta: TransactionMetadata/s.exec(failed.toString())
  return match?.[1] ?? 'TransactionFailed'
}

function invalidParams(message: string): JsonRpcError {
  return new JsonRpcError({ code: jsonRpcErrorCodes.invalidParams, message })
}
