import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'

/** The HPKE `info` every Turnkey-compatible bundle uses. */
export const hpkeInfo = utf8ToBytes('turnkey_hpke')

/** RFC 9180 base mode: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM. */
export const hpkeSuite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
})

/** Output of {@link sealHpke}: the sender's ephemeral key and the AEAD ciphertext (tag appended). */
export type HpkeSealed = {
  /** 65-byte uncompressed ephemeral public key (RFC 9180 `enc`). */
  encappedPublic: Uint8Array
  ciphertext: Uint8Array
}

/**
 * Encrypts one message to a P-256 public key with HPKE base mode, info `turnkey_hpke`, and AEAD
 * additional data `enc ‖ recipient key` (both 65-byte uncompressed), as Turnkey's bundles do.
 *
 * Why: credential and export bundles share this core; only their framing differs.
 *
 * How: `@hpke/core` over WebCrypto (a fresh ephemeral key per call; single-shot context).
 * The caller must pass a key already checked to be on the curve.
 *
 * Fails by throwing the `@hpke/core` error when WebCrypto refuses the key or the encryption.
 */
export async function sealHpke(input: {
  plaintext: Uint8Array
  /** 65-byte uncompressed recipient public key, already validated. */
  recipientPublicKey: Uint8Array
}): Promise<HpkeSealed> {
  const recipientPublicKey = await hpkeSuite.kem.deserializePublicKey(input.recipientPublicKey)
  const sender = await hpkeSuite.createSenderContext({ recipientPublicKey, info: hpkeInfo })
  const encappedPublic = new Uint8Array(sender.enc)
  const additionalData = concatBytes(encappedPublic, input.recipientPublicKey)
  const ciphertext = new Uint8Array(await sender.seal(input.plaintext, additionalData))
  return { encappedPublic, ciphertext }
}
