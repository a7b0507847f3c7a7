import { base64urlnopad } from '@scure/base'
import { KeystoreError } from './keystore-error.ts'
import {
  buildAssociatedData,
  computeKeyId,
  type SealedSecretBinding,
  sealedSecretVersion,
} from './seal-secret.ts'

/**
 * Decrypts a record written by `sealSecret`, given the same key-encryption key, user id and
 * purpose: checks the version and key id, unwraps the data key, then decrypts the secret.
 *
 * Why: the only way back to a seed, used in memory just before signing or exporting.
 *
 * Fails by throwing a {@link KeystoreError}: `SEALED_SECRET_MALFORMED` for an unknown version or a
 * damaged layout, `SEALED_SECRET_WRONG_KEY` when the record names another key-encryption key,
 * `SEALED_SECRET_REJECTED` when authentication fails (the record was altered, or it belongs to
 * another user or purpose). Never returns unauthenticated bytes.
 */
export async function openSecret(input: SealedSecretBinding & { sealed: string }): Promise<Uint8Array> {
  const parts = input.sealed.split('.')
  if (parts.length !== 6 || parts[0] !== sealedSecretVersion) {
    throw new KeystoreError('SEALED_SECRET_MALFORMED', 'not a v1 sealed secret')
  }
  const [, keyId = '', ...encoded] = parts
  if (keyId !== computeKeyId(input.keyEncryptionKey)) {
    throw new KeystoreError('SEALED_SECRET_WRONG_KEY', `sealed with key ${keyId}, not the configured key`)
  }
  let decoded: Uint8Array[]
  try {
    decoded = encoded.map((part) => base64urlnopad.decode(part))
  } catch (error) {
    throw new KeystoreError('SEALED_SECRET_MALFORMED', 'sealed secret is not base64url', error)
  }
  const [wrapNonce, wrappedDataKey, dataNonce, ciphertext] = decoded
  if (
    wrapNonce?.length !== 12 ||
    wrappedDataKey?.length !== 32 + 16 ||
    dataNonce?.length !== 12 ||
    ciphertext === undefined ||
    ciphertext.length < 16
  ) {
    throw new KeystoreError('SEALED_SECRET_MALFORMED', 'sealed secret parts have the wrong lengths')
  }
  const additionalData = buildAssociatedData({ keyId, purpose: input.purpose, userId: input.userId })
  const dataKey = await decrypt(input.keyEncryptionKey, wrapNonce, wrappedDataKey, additionalData)
  try {
    return await decrypt(dataKey, dataNonce, ciphertext, additionalData)
  } finally {
    dataKey.fill(0)
  }
}

async function decrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  ciphertext: Uint8Array,
  additionalData: Uint8Array,
): Promise<Uint8Array> {
  // WebCrypto wants ArrayBuffer-backed views; copy, and wipe the key copy afterwards.
  const rawKey = Uint8Array.from(key)
  try {
    const cryptoKey = await crypto.subtle.importKey('raw', rawKey, 'AES-GCM', false, ['decrypt'])
    const parameters = {
      name: 'AES-GCM',
      iv: Uint8Array.from(nonce),
      additionalData: Uint8Array.from(additionalData),
    }
    return new Uint8Array(await crypto.subtle.decrypt(parameters, cryptoKey, Uint8Array.from(ciphertext)))
  } catch (error) {
    throw new KeystoreError('SEALED_SECRET_REJECTED', 'sealed secret failed authentication', error)
  } finally {
    rawKey.fill(0)
  }
}
