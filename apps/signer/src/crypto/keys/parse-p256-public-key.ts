import { p256 } from '@noble/curves/nist.js'
import { parseHex } from '../bytes/parse-hex.ts'

/** A P-256 public key checked to be a point on the curve, in both SEC1 encodings. */
export type P256PublicKey = {
  /** 33 bytes: 0x02/0x03 prefix and x. */
  compressed: Uint8Array
  /** 65 bytes: 0x04 prefix, x and y. */
  uncompressed: Uint8Array
}

/** Which SEC1 encodings a caller accepts; the wire formats each fix one. */
export type P256PublicKeyEncoding = 'compressed' | 'uncompressed' | 'any'

const hexLengths: Record<P256PublicKeyEncoding, readonly number[]> = {
  compressed: [66],
  uncompressed: [130],
  any: [66, 130],
}

/**
 * Parses a hex SEC1 P-256 public key and validates that it is a point on the curve (not the
 * identity), returning both encodings.
 *
 * Why: stamps carry compressed keys, HPKE target keys are uncompressed, and a key that is not on
 * the curve must never reach ECDH or ECDSA (invalid-curve attacks).
 *
 * Fails by returning `undefined` for malformed hex, a length or prefix the `encoding` does not
 * allow, or a point that is not on the curve. Never throws.
 */
export function parseP256PublicKey(hex: string, encoding: P256PublicKeyEncoding): P256PublicKey | undefined {
  if (!hexLengths[encoding].includes(hex.length)) return undefined
  const bytes = parseHex(hex)
  if (bytes === undefined) return undefined
  return parseP256PublicKeyBytes(bytes)
}

/**
 * Byte form of {@link parseP256PublicKey} for keys already decoded (e.g. from a bundle).
 * Accepts only the 33-byte compressed or 65-byte uncompressed SEC1 encodings.
 *
 * Fails by returning `undefined`; never throws.
 */
export function parseP256PublicKeyBytes(bytes: Uint8Array): P256PublicKey | undefined {
  const prefix = bytes[0]
  const isCompressed = bytes.length === 33 && (prefix === 0x02 || prefix === 0x03)
  const isUncompressed = bytes.length === 65 && prefix === 0x04
  if (!isCompressed && !isUncompressed) return undefined
  try {
    const point = p256.Point.fromBytes(bytes)
    point.assertValidity()
    return { compressed: point.toBytes(true), uncompressed: point.toBytes(false) }
  } catch {
    return undefined
  }
}
