import {
  type Address,
  assertIsFullySignedTransaction,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  type MessagePartialSigner,
  type MessagePartialSignerConfig,
  type Rpc,
  type SendTransactionApi,
  type SignableMessage,
  type SignatureBytes,
  type SignatureDictionary,
  type Transaction,
  type TransactionPartialSigner,
  type TransactionPartialSignerConfig,
  type TransactionSendingSigner,
  type TransactionSendingSignerConfig,
} from '@solana/kit'
import { createWalletError } from '../wallet-error.ts'

/**
 * The signed-in user's Solana account as a `@solana/kit` signer (docs/signer.md#solana-signing):
 * both a `MessagePartialSigner` and a `TransactionPartialSigner`, so kit's
 * `signTransactionMessageWithSigners` and `partiallySignTransactionMessageWithSigners` take it like
 * a key pair signer (for `signAndSendTransactionMessageWithSigners`: {@link SolanaSendingSigner}). `signTransactions`
 * also takes a transaction without its lifetime (one decoded from the wire, as a sponsor answers it).
 */
export type SolanaSigner<TAddress extends string = string> = Readonly<{
  address: Address<TAddress>
  signMessages(
    messages: readonly SignableMessage[],
    config?: MessagePartialSignerConfig,
  ): Promise<readonly SignatureDictionary[]>
  signTransactions(
    transactions: readonly Transaction[],
    config?: TransactionPartialSignerConfig,
  ): Promise<readonly SignatureDictionary[]>
}>

/**
 * A SolanaSigner given an RPC to send through: also a kit `TransactionSendingSigner`, so kit's
 * `signAndSendTransactionMessageWithSigners` signs with it (after the other signers) and sends the
 * transaction with the RPC's `sendTransaction` (base64).
 */
export type SolanaSendingSigner<TAddress extends string = string> = SolanaSigner<TAddress> &
  Readonly<{
    signAndSendTransactions(
      transactions: readonly Transaction[],
      config?: TransactionSendingSignerConfig,
    ): Promise<readonly SignatureBytes[]>
  }>

// These signers are usable wherever kit asks for the signer kinds they implement.
type Assignable<T extends U, U> = T
export type SolanaSignerIsKitSigner = Assignable<
  SolanaSigner,
  MessagePartialSigner & TransactionPartialSigner
>
export type SolanaSendingSignerIsKitSigner = Assignable<SolanaSendingSigner, TransactionSendingSigner>

/**
 * A SolanaSigner over `signBytes`, which signs one message's bytes with ed25519 (64 bytes). Each
 * message, and each transaction's `messageBytes` (legacy or version 0 alike), is signed on its own
 * call, one after the other: through the signer service that is one signing activity each. With
 * `rpc` it is a {@link SolanaSendingSigner} that sends what it signed through that RPC.
 */
export function createSolanaSigner<TAddress extends string>(input: {
  address: Address<TAddress>
  signBytes: (bytes: Uint8Array) => Promise<Uint8Array>
}): SolanaSigner<TAddress>
export function createSolanaSigner<TAddress extends string>(input: {
  address: Address<TAddress>
  signBytes: (bytes: Uint8Array) => Promise<Uint8Array>
  rpc: Rpc<SendTransactionApi>
}): SolanaSendingSigner<TAddress>
export function createSolanaSigner<TAddress extends string>(input: {
  address: Address<TAddress>
  signBytes: (bytes: Uint8Array) => Promise<Uint8Array>
  rpc?: Rpc<SendTransactionApi>
}): SolanaSigner<TAddress> | SolanaSendingSigner<TAddress> {
  const { address, signBytes, rpc } = input
  const sign = async (
    bytes: Uint8Array,
    abortSignal: AbortSignal | undefined,
  ): Promise<SignatureDictionary> => {
    abortSignal?.throwIfAborted()
    const signature = await signBytes(bytes)
    if (signature.length !== 64)
      throw createWalletError('The signer answered a signature that is not 64 bytes')
    return Object.freeze({ [address]: signature as SignatureBytes })
  }
  const signer: SolanaSigner<TAddress> = {
    address,
    async signMessages(messages, config) {
      const dictionaries: SignatureDictionary[] = []
      for (const message of messages) dictionaries.push(await sign(message.content, config?.abortSignal))
      return dictionaries
    },
    async signTransactions(transactions, config) {
      const dictionaries: SignatureDictionary[] = []
      for (const transaction of transactions) {
        dictionaries.push(await sign(new Uint8Array(transaction.messageBytes), config?.abortSignal))
      }
      return dictionaries
    },
  }
  if (rpc === undefined) return Object.freeze(signer)
  return Object.freeze({
    ...signer,
    async signAndSendTransactions(transactions, config) {
      const signatures: SignatureBytes[] = []
      for (const transaction of transactions) {
        const own = await sign(new Uint8Array(transaction.messageBytes), config?.abortSignal)
        const signed: Transaction = Object.freeze({
          ...transaction,
          signatures: Object.freeze({ ...transaction.signatures, ...own }),
        })
        assertIsFullySignedTransaction(signed)
        const signature = await rpc
          .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
          .send(config?.abortSignal === undefined ? undefined : { abortSignal: config.abortSignal })
        signatures.push(getBase58Encoder().encode(signature) as SignatureBytes)
      }
      return signatures
    },
  } satisfies SolanaSendingSigner<TAddress>)
}
