import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import bs58check from 'bs58check'
import { parseP256PrivateKey } from '../keys/parse-p256-private-key.ts'
import { parseP256PublicKeyBytes } from '../keys/parse-p256-public-key.ts'
import { BundleError } from './bundle-error.ts'
import { openHpke } from './open-hpke.ts'

/** The session key recovered from a credential bundle. */
export type DecryptedCredential = {
  /** 32-byte P-256 private scalar of the session key. */
  privateKey: Uint8Array
  /** Its compressed public key, lower-case hex: the `publicKey` of the stamps it will sign. */
  publicKey: string
}

/**
 * Opens a credential bundle with the auth frame's embedded private key: bs58check-decode, split
 * the 33-byte compressed encapsulated key from the ciphertext, HPKE-open, and check that the
 * plaintext is a usable P-256 session key.
 *
 * Why: the auth frame and SDK turn the bundle from a login into the key that stamps requests.
 *
 * Fails by throwing a {@link BundleError}: `EMBEDDED_KEY_INVALID` for a bad embedded key,
 * `BUNDLE_MALFORMED` for a bad checksum, a short bundle or an invalid encapsulated key,
 * `DECRYPTION_FAILED` when it was encrypted to another key or altered, `PLAINTEXT_INVALID` when
 * the plaintext is not a 32-byte P-256 scalar.
 */
export async function decryptCredentialBundle(input: {
  bundle: string
  /** The frame's private key: 32 bytes or 64 hex characters. */
  embeddedPrivateKey: Uint8Array | string
}): Promise<DecryptedCredential> {
  const embeddedPrivateKey = parseP256PrivateKey(input.embeddedPrivateKey)
  if (embeddedPrivateKey === undefined) {
    throw new BundleError('EMBEDDED_KEY_INVALID', 'embedded key must be a 32-byte P-256 scalar')
  }
  let bytes: Uint8Array
  try {
    bytes = bs58check.decode(input.bundle)
  } catch (error) {
    throw new BundleError('BUNDLE_MALFORMED', 'credential bundle is not bs58check', error)
  }
  // 33-byte key, then at least the 16-byte AES-GCM tag.
  if (bytes.length < 33 + 16) throw new BundleError('BUNDLE_MALFORMED', 'credential bundle is too short')
  const encapped = parseP256PublicKeyBytes(bytes.subarray(0, 33))
  if (encapped === undefined) {
    throw new BundleError('BUNDLE_MALFORMED', 'encapsulated key is not a compressed P-256 point')
  }
  const plaintext = await openHpke({
    ciphertext: bytes.subarray(33),
    encappedPublic: encapped.uncompressed,
    recipientPrivateKey: embeddedPrivateKey,
  }).finally(() => embeddedPrivateKey.fill(0))
  if (plaintext.length !== 32 || !p256.utils.isValidSecretKey(plaintext)) {
    plaintext.fill(0)
    throw new BundleError('PLAINTEXT_INVALID', 'credential is not a 32-byte P-256 scalar')
  }
  return { privateKey: plaintext, publicKey: bytesToHex(p256.getPublicKey(plaintext, true)) }
}
