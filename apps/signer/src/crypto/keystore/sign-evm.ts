import { bytesToHex } from '@noble/hashes/utils.js'
import type {
  AuthorizationRequest,
  Hex,
  SignableMessage,
  SignedAuthorization,
  TransactionSerializable,
  TransactionSerialized,
  TypedData,
  TypedDataDefinition,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { deriveEvmAccount } from './derive-evm-account.ts'
import { KeystoreError } from './keystore-error.ts'

/**
 * One EVM signing request, one per method of a viem custom account (`toAccount`):
 * - `hash`: a raw 32-byte digest (Turnkey's sign-raw-payload with no hashing; the SDK hashed it);
 * - `message`: EIP-191 personal message;
 * - `typedData`: EIP-712;
 * - `transaction`: any viem-serialisable transaction (legacy, 2930, 1559, 4844, 7702);
 * - `authorization`: an EIP-7702 authorization tuple.
 */
export type EvmSignRequest =
  | { kind: 'hash'; hash: Hex }
  | { kind: 'message'; message: SignableMessage }
  | { kind: 'typedData'; typedData: TypedDataDefinition<TypedData | Record<string, unknown>, string> }
  | { kind: 'transaction'; transaction: TransactionSerializable }
  | { kind: 'authorization'; authorization: AuthorizationRequest }

/**
 * What each request returns, exactly what the matching viem account method must return: a 65-byte
 * `r‖s‖v` hex signature, the serialised signed transaction, or the signed authorization.
 */
export type EvmSignResult<TRequest extends EvmSignRequest> = TRequest extends { kind: 'authorization' }
  ? SignedAuthorization
  : TRequest extends { kind: 'transaction' }
    ? TransactionSerialized
    : Hex

/**
 * Signs one EVM request with the wallet's account (m/44'/60'/0'/0/0) derived from the BIP-39 seed.
 *
 * Why: the service signs on behalf of the SDK's custom viem account; returning viem's own shapes
 * means the SDK forwards results untouched. Signing uses viem's local account (RFC 6979, low-S,
 * EIP-155/EIP-2718 aware) so no signature encoding is hand-written here.
 *
 * Fails by throwing a {@link KeystoreError}: `SEED_INVALID` for a bad seed, `SIGN_REQUEST_INVALID`
 * when viem rejects the request (a malformed hash, typed data or transaction; viem's error is
 * the cause).
 */
export async function signEvm<TRequest extends EvmSignRequest>(
  seed: Uint8Array,
  request: TRequest,
): Promise<EvmSignResult<TRequest>> {
  const { privateKey } = deriveEvmAccount(seed)
  const account = privateKeyToAccount(`0x${bytesToHex(privateKey)}`)
  privateKey.fill(0)
  try {
    return (await signWith(account, request)) as EvmSignResult<TRequest>
  } catch (error) {
    throw new KeystoreError('SIGN_REQUEST_INVALID', `could not sign the ${request.kind} request`, error)
  }
}

async function signWith(
  account: ReturnType<typeof privateKeyToAccount>,
  request: EvmSignRequest,
): Promise<Hex | SignedAuthorization> {
  switch (request.kind) {
    case 'hash':
      if (!/^0x[0-9a-fA-F]{64}$/.test(request.hash)) throw new TypeError('hash must be 32 bytes of hex')
      return account.sign({ hash: request.hash })
    case 'message':
      return account.signMessage({ message: request.message })
    case 'typedData':
      return account.signTypedData(request.typedData)
    case 'transaction':
      return account.signTransaction(request.transaction)
    case 'authorization':
      return account.signAuthorization(request.authorization)
    default: {
      const unknown: never = request
      throw new TypeError(`unknown request kind ${JSON.stringify(unknown)}`)
    }
  }
}
