import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import type { SessionSigningKey } from './import-session-key.ts'

/** The only stamp scheme the signer accepts (Turnkey's name). */
export const stampScheme = 'SIGNATURE_SCHEME_TK_API_P256'

/**
 * Stamps a request body with a WebCrypto session key: ECDSA P-256/SHA-256 over the body's UTF-8
 * bytes, normalised to low-S and DER-encoded, then base64url (no padding) of JSON
 * `{publicKey, scheme, signature}` in that order — the `X-Stamp` value a stock Turnkey client sends.
 *
 * Why low-S: WebCrypto returns high-S about half the time; low-S is what every verifier accepts.
 *
 * Fails by rejecting when WebCrypto refuses the key (not an ECDSA P-256 signing key).
 */
export async function createWebCryptoStamp(input: { key: SessionSigningKey; body: string }): Promise<string> {
  const compact = new Uint8Array(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      input.key.privateKey,
      utf8ToBytes(input.body),
    ),
  )
  let signature = p256.Signature.fromBytes(compact, 'compact')
  if (signature.hasHighS()) signature = new p256.Signature(signature.r, p256.Point.Fn.ORDER - signature.s)
  const stamp = {
    publicKey: input.key.publicKey,
    scheme: stampScheme,
    signature: bytesToHex(signature.toBytes('der')),
  }
  return base64urlnopad.encode(utf8ToBytes(JSON.stringify(stamp)))
}
