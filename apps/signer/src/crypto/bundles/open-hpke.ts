import { p256 } from '@noble/curves/nist.js'
import { concatBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import { BundleError } from './bundle-error.ts'
import { hpkeInfo, hpkeSuite } from './seal-hpke.ts'

/**
 * Decrypts what {@link sealHpke} (or Turnkey's `hpkeEncrypt`) produced, with the recipient's
 * private scalar: HPKE base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info
 * `turnkey_hpke`, additional data `enc ‖ recipient key` (65-byte uncompressed each).
 *
 * Why: the auth frame opens credential bundles and the export frame opens export bundles with the
 * same primitive.
 *
 * Fails by throwing a {@link BundleError} `DECRYPTION_FAILED` when the ephemeral key is invalid,
 * the ciphertext was altered, or it was encrypted to another key.
 */
export async function openHpke(input: {
  ciphertext: Uint8Array
  /** 65-byte uncompressed ephemeral public key of the sender. */
  encappedPublic: Uint8Array
  /** 32-byte P-256 private scalar, already validated. */
  recipientPrivateKey: Uint8Array
}): Promise<Uint8Array> {
  try {
    const recipientPublicKey = p256.getPublicKey(input.recipientPrivateKey, false)
    // JWK with x and y is the private-key import every browser's WebCrypto accepts for ECDH.
    const recipientKey = await hpkeSuite.kem.importKey(
      'jwk',
      {
        kty: 'EC',
        crv: 'P-256',
        d: base64urlnopad.encode(input.recipientPrivateKey),
        x: base64urlnopad.encode(recipientPublicKey.subarray(1, 33)),
        y: base64urlnopad.encode(recipientPublicKey.subarray(33)),
      },
      false,
    )
    const recipient = await hpkeSuite.createRecipientContext({
      recipientKey,
      enc: input.encappedPublic,
      info: hpkeInfo,
    })
    const additionalData = concatBytes(input.encappedPublic, recipientPublicKey)
    return new Uint8Array(await recipient.open(input.ciphertext, additionalData))
  } catch (error) {
    throw new BundleError('DECRYPTION_FAILED', 'HPKE open failed', error)
  }
}
