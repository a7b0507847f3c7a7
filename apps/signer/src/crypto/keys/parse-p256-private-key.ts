import { p256 } from '@noble/curves/nist.js'
import { parseHex } from '../bytes/parse-hex.ts'

/**
 * Accepts a P-256 private scalar as 32 bytes or 64 hex characters and checks it lies in
 * [1, n-1].
 *
 * Why: the frames and SDK hold keys as hex (the Turnkey reference does too), the service holds
 * bytes; every consumer must reject a zero or out-of-range scalar before using it.
 *
 * Fails by returning `undefined` for any other length, malformed hex or an invalid scalar.
 * Returns a copy, so the caller may wipe its own buffer. Never throws.
 */
export function parseP256PrivateKey(value: Uint8Array | string): Uint8Array | undefined {
  const bytes = typeof value === 'string' ? parseHex(value, 32) : Uint8Array.from(value)
  if (bytes === undefined || bytes.length !== 32) return undefined
  return p256.utils.isValidSecretKey(bytes) ? bytes : undefined
}
