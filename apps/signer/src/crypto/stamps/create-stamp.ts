import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import { parseP256PrivateKey } from '../keys/parse-p256-private-key.ts'
import { stampScheme } from './decode-stamp-header.ts'

/**
 * Signs a request body with a P-256 key (a session key or API key) and returns the `X-Stamp`
 * header value: base64url, no padding, of JSON `{publicKey, scheme, signature}`, in Turnkey's
 * field order, with the compressed public key and the DER signature as lower-case hex.
 *
 * Why: the SDK, the auth frame and the tests stamp requests exactly as a stock Turnkey client does,
 * so either side can be swapped for an independent implementation.
 *
 * How: ECDSA P-256/SHA-256 over the UTF-8 bytes of `body` (sent byte for byte as signed),
 * deterministic nonces (RFC 6979) normalised to low-S, which every verifier accepts.
 *
 * Fails by throwing a `TypeError` when `privateKey` is not a valid 32-byte P-256 scalar (bytes or hex).
 */
export function createStamp(input: { privateKey: Uint8Array | string; body: string | Uint8Array }): string {
  const privateKey = parseP256PrivateKey(input.privateKey)
  if (privateKey === undefined) throw new TypeError('createStamp: privateKey is not a valid P-256 scalar')
  const body = typeof input.body === 'string' ? utf8ToBytes(input.body) : input.body
  const signature = p256.sign(body, privateKey, { format: 'der', prehash: true, lowS: true })
  const stamp = {
    publicKey: bytesToHex(p256.getPublicKey(privateKey, true)),
    scheme: stampScheme,
    signature: bytesToHex(signature),
  }
  privateKey.fill(0)
  return base64urlnopad.encode(utf8ToBytes(JSON.stringify(stamp)))
}
