import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import { KeystoreError } from './keystore-error.ts'

/** The one sealed-secret format version written today; `openSecret` dispatches on it. */
export const sealedSecretVersion = 'v1'

const purposePattern = /^[a-z0-9][a-z0-9-]{0,63}$/
const keyIdLabel = utf8ToBytes('quick-links/signer/key-id/v1')

/** What a sealed secret is bound to: the same values must be given to open it. */
export type SealedSecretBinding = {
  /** The 32-byte key-encryption key (from `loadMasterKey`). */
  keyEncryptionKey: Uint8Array
  /** The owner; a record copied to another user's row will not open. */
  userId: string
  /** What the secret is (`wallet-mnemonic`, `totp-secret`…); a record used for another purpose will not open. */
  purpose: string
}

/**
 * Encrypts a secret for storage (envelope encryption): a fresh random 256-bit data key encrypts
 * the plaintext with AES-256-GCM, and the key-encryption key wraps that data key with
 * AES-256-GCM, each under its own random 96-bit nonce. Both encryptions authenticate the
 * same associated data, binding the record to the format version, the key id, the purpose and
 * the user id.
 *
 * Format (text, safe for any column): `v1.<keyId>.<wrapNonce>.<wrappedDataKey>.<dataNonce>.<ciphertext>`,
 * each part base64url without padding; `keyId` is the first 8 bytes of HMAC-SHA256(KEK, label),
 * so a record names the key it needs without revealing it, and KEK rotation only re-wraps data keys.
 *
 * Why: seeds are decrypted only in memory, only to sign; a database dump alone reveals nothing,
 * and records cannot be swapped between users.
 *
 * Fails by throwing a {@link KeystoreError} `MASTER_KEY_INVALID` unless the key is 32 bytes, or
 * `SEALED_SECRET_BINDING_INVALID` for an empty user id or a purpose outside `[a-z0-9-]`.
 */
export async function sealSecret(input: SealedSecretBinding & { plaintext: Uint8Array }): Promise<string> {
  const keyId = computeKeyId(input.keyEncryptionKey)
  const additionalData = buildAssociatedData({ ...input, keyId })
  const dataKey = crypto.getRandomValues(new Uint8Array(32))
  const dataNonce = crypto.getRandomValues(new Uint8Array(12))
  const wrapNonce = crypto.getRandomValues(new Uint8Array(12))
  try {
    const ciphertext = await encrypt(dataKey, dataNonce, input.plaintext, additionalData)
    const wrappedDataKey = await encrypt(input.keyEncryptionKey, wrapNonce, dataKey, additionalData)
    return [sealedSecretVersion, keyId, wrapNonce, wrappedDataKey, dataNonce, ciphertext]
      .map((part) => (typeof part === 'string' ? part : base64urlnopad.encode(part)))
      .join('.')
  } finally {
    dataKey.fill(0)
  }
}

/**
 * The public identifier of a key-encryption key: base64url of the first 8 bytes of
 * HMAC-SHA256(key, "quick-links/signer/key-id/v1"). Fails like {@link sealSecret} for a bad key.
 */
export function computeKeyId(keyEncryptionKey: Uint8Array): string {
  if (keyEncryptionKey.length !== 32) {
    throw new KeystoreError('MASTER_KEY_INVALID', 'key-encryption key must be 32 bytes')
  }
  return base64urlnopad.encode(hmac(sha256, keyEncryptionKey, keyIdLabel).subarray(0, 8))
}

/**
 * The associated data both AES-GCM layers authenticate: an unambiguous JSON array of the format
 * label, version, key id, purpose and user id. Fails like {@link sealSecret} for bad values.
 */
export function buildAssociatedData(input: { keyId: string; purpose: string; userId: string }): Uint8Array {
  if (input.userId.length === 0)
    throw new KeystoreError('SEALED_SECRET_BINDING_INVALID', 'userId must not be empty')
  if (!purposePattern.test(input.purpose)) {
    throw new KeystoreError('SEALED_SECRET_BINDING_INVALID', `purpose must match ${purposePattern}`)
  }
  return utf8ToBytes(
    JSON.stringify([
      'quick-links/signer/sealed-secret',
      sealedSecretVersion,
      input.keyId,
      input.purpose,
      input.userId,
    ]),
  )
}

async function encrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  plaintext: Uint8Array,
  additionalData: Uint8Array,
): Promise<Uint8Array> {
  // WebCrypto wants ArrayBuffer-backed views; copy, and wipe the key copy afterwards.
  const rawKey = Uint8Array.from(key)
  try {
    const cryptoKey = await crypto.subtle.importKey('raw', rawKey, 'AES-GCM', false, ['encrypt'])
    const parameters = {
      name: 'AES-GCM',
      iv: Uint8Array.from(nonce),
      additionalData: Uint8Array.from(additionalData),
    }
    return new Uint8Array(await crypto.subtle.encrypt(parameters, cryptoKey, Uint8Array.from(plaintext)))
  } finally {
    rawKey.fill(0)
  }
}
