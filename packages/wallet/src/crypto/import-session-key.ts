import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'

/** A session key held as a non-extractable WebCrypto key, with the public key stamps name. */
export type SessionSigningKey = {
  /** ECDSA P-256 private key, usage `sign`, not extractable. */
  privateKey: CryptoKey
  /** Compressed SEC1 public key, lower-case hex (66 characters): a stamp's `publicKey`. */
  publicKey: string
}

/**
 * Imports a session key's 32-byte private scalar (from a credential bundle) as a NON-EXTRACTABLE
 * ECDSA P-256 signing key and wipes the scalar.
 *
 * Why: after this call no script can read the session key again; it can only ask for stamps.
 * JWK (with x and y) is the EC private-key import every browser's WebCrypto accepts.
 *
 * Fails by rejecting when the scalar is not a valid P-256 private key (the buffer is wiped
 * either way).
 */
export async function importSessionKey(privateScalar: Uint8Array): Promise<SessionSigningKey> {
  try {
    const uncompressed = p256.getPublicKey(privateScalar, false)
    const privateKey = await crypto.subtle.importKey(
      'jwk',
      {
        kty: 'EC',
        crv: 'P-256',
        d: base64urlnopad.encode(privateScalar),
        x: base64urlnopad.encode(uncompressed.subarray(1, 33)),
        y: base64urlnopad.encode(uncompressed.subarray(33)),
        ext: false,
      },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['sign'],
    )
    return { privateKey, publicKey: bytesToHex(p256.getPublicKey(privateScalar, true)) }
  } finally {
    privateScalar.fill(0)
  }
}
