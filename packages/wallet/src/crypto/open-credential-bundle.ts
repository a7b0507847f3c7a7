import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core'
import { p256 } from '@noble/curves/nist.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import bs58check from 'bs58check'

const hpkeSuite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
})
const hpkeInfo = utf8ToBytes('turnkey_hpke')

/** Shown when a bundle cannot be opened: a stale link, another browser's link, or tampering. */
export const bundleNotOpenedMessage = 'Failed to inject credential bundle'

/**
 * Opens a credential bundle with the embedded key pair and returns the session key's 32-byte
 * P-256 private scalar. Format (docs/signer.md#credential-bundle): bs58check(compressed enc (33) ‖
 * AES-256-GCM ciphertext+tag); HPKE base mode DHKEM(P-256)/HKDF-SHA256/AES-256-GCM, info
 * `turnkey_hpke`, additional data `enc (65) ‖ receiver key (65)`, both uncompressed.
 *
 * Why a key PAIR: the embedded private key is non-extractable, so its public half cannot be
 * derived from it; `@hpke/core` takes the pair as the recipient key and only runs ECDH with the
 * private half.
 *
 * Fails by throwing an AppError (BAD_REQUEST, message {@link bundleNotOpenedMessage}) when the
 * bundle is not bs58check, too short, carries an invalid ephemeral key, was encrypted to another
 * key or altered, or does not hold a valid P-256 scalar. The cause says which.
 */
export async function openCredentialBundle(input: {
  bundle: string
  embeddedKeyPair: CryptoKeyPair
}): Promise<Uint8Array> {
  let bytes: Uint8Array
  try {
    bytes = bs58check.decode(input.bundle.trim())
  } catch (error) {
    throw bundleError('credential bundle is not bs58check', error)
  }
  if (bytes.length < 33 + 16) throw bundleError('credential bundle is too short')
  let encapped: Uint8Array
  try {
    const point = p256.Point.fromBytes(bytes.subarray(0, 33))
    point.assertValidity()
    encapped = point.toBytes(false)
  } catch (error) {
    throw bundleError('encapsulated key is not a compressed P-256 point', error)
  }
  let plaintext: Uint8Array
  try {
    const receiver = new Uint8Array(await crypto.subtle.exportKey('raw', input.embeddedKeyPair.publicKey))
    const recipient = await hpkeSuite.createRecipientContext({
      recipientKey: input.embeddedKeyPair,
      enc: encapped,
      info: hpkeInfo,
    })
    plaintext = new Uint8Array(await recipient.open(bytes.subarray(33), concatBytes(encapped, receiver)))
  } catch (error) {
    throw bundleError('HPKE open failed: the bundle was made for another key or altered', error)
  }
  if (plaintext.length !== 32 || !p256.utils.isValidSecretKey(plaintext)) {
    plaintext.fill(0)
    throw bundleError('credential is not a 32-byte P-256 scalar')
  }
  return plaintext
}

function bundleError(detail: string, cause?: unknown): AppError {
  return new AppError('BAD_REQUEST', {
    message: `${bundleNotOpenedMessage}: ${detail}`,
    userMessage: bundleNotOpenedMessage,
    ...(cause === undefined ? {} : { cause }),
  })
}
