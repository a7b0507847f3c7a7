import { base64urlnopad } from '@scure/base'
import { parseHex } from '../bytes/parse-hex.ts'
import { parseP256PublicKey } from '../keys/parse-p256-public-key.ts'

/** The only scheme accepted: ECDSA P-256 with SHA-256, DER signature (Turnkey's name). */
export const stampScheme = 'SIGNATURE_SCHEME_TK_API_P256'

/** A decoded stamp, fields validated; hex is normalised to lower case. */
export type DecodedStamp = {
  /** Compressed SEC1 P-256 public key, 66 lower-case hex characters. */
  publicKey: string
  /** The same key as 33 bytes, already checked to be a point on the curve. */
  publicKeyBytes: Uint8Array
  /** DER-encoded ECDSA signature bytes. */
  signature: Uint8Array
}

/** Header values longer than this are refused before decoding (a real stamp is ~330 characters). */
const maxHeaderLength = 1024
/** A DER P-256 signature is at most 72 bytes. */
const maxSignatureBytes = 72

export type DecodeStampHeaderResult =
  | { ok: true; stamp: DecodedStamp }
  | { ok: false; reason: 'STAMP_MISSING' | 'STAMP_MALFORMED' | 'STAMP_SCHEME_UNSUPPORTED'; message: string }

/**
 * Decodes an `X-Stamp` header value: base64url without padding of the JSON
 * `{publicKey, scheme, signature}`. Does not verify the signature.
 *
 * Why separate: the verifier needs the fields before it touches the body, and the SDK's tests
 * need the same parser to check what the stamper emits.
 *
 * Fails by returning `{ok: false}` with `STAMP_MISSING` (absent or empty), `STAMP_MALFORMED`
 * (padding, a non-base64url character, not JSON, a missing field, a key that is not a compressed
 * point on P-256, a signature that is not hex) or `STAMP_SCHEME_UNSUPPORTED`. Never throws.
 */
export function decodeStampHeader(value: string | undefined): DecodeStampHeaderResult {
  if (value === undefined || value.length === 0) {
    return { ok: false, reason: 'STAMP_MISSING', message: 'no stamp header' }
  }
  if (value.length > maxHeaderLength) {
    return { ok: false, reason: 'STAMP_MALFORMED', message: 'stamp header too long' }
  }
  let parsed: unknown
  try {
    const json = new TextDecoder('utf-8', { fatal: true }).decode(base64urlnopad.decode(value))
    parsed = JSON.parse(json)
  } catch {
    return { ok: false, reason: 'STAMP_MALFORMED', message: 'stamp is not base64url (no padding) JSON' }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'STAMP_MALFORMED', message: 'stamp is not a JSON object' }
  }
  const { publicKey, scheme, signature } = parsed as Record<string, unknown>
  if (typeof publicKey !== 'string' || typeof scheme !== 'string' || typeof signature !== 'string') {
    return {
      ok: false,
      reason: 'STAMP_MALFORMED',
      message: 'stamp needs string publicKey, scheme and signature',
    }
  }
  if (scheme !== stampScheme) {
    return { ok: false, reason: 'STAMP_SCHEME_UNSUPPORTED', message: `unsupported stamp scheme ${scheme}` }
  }
  const key = parseP256PublicKey(publicKey, 'compressed')
  if (key === undefined) {
    return {
      ok: false,
      reason: 'STAMP_MALFORMED',
      message: 'stamp publicKey is not a compressed P-256 point',
    }
  }
  const signatureBytes = parseHex(signature)
  if (
    signatureBytes === undefined ||
    signatureBytes.length === 0 ||
    signatureBytes.length > maxSignatureBytes
  ) {
    return { ok: false, reason: 'STAMP_MALFORMED', message: 'stamp signature is not DER hex' }
  }
  return {
    ok: true,
    stamp: { publicKey: publicKey.toLowerCase(), publicKeyBytes: key.compressed, signature: signatureBytes },
  }
}
