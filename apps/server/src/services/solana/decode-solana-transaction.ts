import {
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Transaction,
} from '@solana/kit'
import type { ReadableCompiledMessage } from './get-solana-transaction-fee.ts'

/** Solana's size limit for one transaction on the wire (signatures and message). */
export const maxSolanaTransactionBytes = 1232

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const base58Pattern = /^[1-9A-HJ-NP-Za-km-z]+$/

/**
 * Reads a wire transaction (signatures then message), in base64 or base58, into the transaction
 * and its compiled message. Returns a sentence saying why instead when the text is not in that
 * encoding, is larger than 1232 bytes, does not decode to a whole transaction, its message is
 * neither legacy nor version 0, has no writable signer first (the fee payer), or names an account
 * twice (a node refuses both).
 */
export function decodeSolanaTransaction(
  encoded: string,
  encoding: 'base64' | 'base58' = 'base64',
): { transaction: Transaction; message: ReadableCompiledMessage; wireBytes: Uint8Array } | string {
  const pattern = encoding === 'base64' ? base64Pattern : base58Pattern
  if (encoded.length === 0 || !pattern.test(encoded)) return `the transaction is not ${encoding}`
  const bytes = new Uint8Array(
    encoding === 'base64' ? getBase64Encoder().encode(encoded) : getBase58Encoder().encode(encoded),
  )
  if (bytes.length > maxSolanaTransactionBytes) {
    return `the transaction is ${bytes.length} bytes, more than Solana's ${maxSolanaTransactionBytes}`
  }
  let transaction: Transaction
  let message: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>
  try {
    const [decoded, end] = getTransactionDecoder().read(bytes, 0)
    if (end !== bytes.length) return 'the transaction has bytes after its message'
    transaction = decoded
    message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
  } catch {
    return 'the bytes are not a Solana wire transaction'
  }
  if (message.version !== 'legacy' && message.version !== 0) {
    return `transaction version ${String(message.version)} is not supported (legacy and 0 are)`
  }
  const { numSignerAccounts, numReadonlySignerAccounts } = message.header
  if (numSignerAccounts < 1 || numReadonlySignerAccounts >= numSignerAccounts) {
    return 'its first account must be a writable signer, the fee payer'
  }
  if (new Set(message.staticAccounts).size !== message.staticAccounts.length) {
    return 'it names an account twice'
  }
  if (Object.keys(transaction.signatures).length !== message.header.numSignerAccounts) {
    return 'the transaction has not one signature slot per required signer'
  }
  return { transaction, message, wireBytes: bytes }
}
