import type {
  Address,
  MessagePartialSigner,
  MessagePartialSignerConfig,
  SignableMessage,
  SignatureBytes,
  SignatureDictionary,
  Transaction,
  TransactionPartialSigner,
  TransactionPartialSignerConfig,
} from '@solana/kit'
import { createWalletError } from '../wallet-error.ts'

/**
 * The signed-in user's Solana account as a `@solana/kit` signer (docs/signer.md#solana-signing):
 * both a `MessagePartialSigner` and a `TransactionPartialSigner`, so kit's
 * `signTransactionMessageWithSigners`, `partiallySignTransactionMessageWithSigners` and
 * `signAndSendTransactionMessageWithSigners` take it like a key pair signer. `signTransactions`
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

// A SolanaSigner is usable wherever kit asks for either signer kind.
type Assignable<T extends U, U> = T
export type SolanaSignerIsKitSigner = Assignable<
  SolanaSigner,
  MessagePartialSigner & TransactionPartialSigner
>

/**
 * A SolanaSigner over `signBytes`, which signs one message's bytes with ed25519 (64 bytes). Each
 * message, and each transaction's `messageBytes` (legacy or version 0 alike), is signed on its own
 * call, one after the other: through the signer service that is one signing activity each.
 */
export function createSolanaSigner<TAddress extends string>(input: {
  address: Address<TAddress>
  signBytes: (bytes: Uint8Array) => Promise<Uint8Array>
}): SolanaSigner<TAddress> {
  const { address, signBytes } = input
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
  return Object.freeze({
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
  })
}
