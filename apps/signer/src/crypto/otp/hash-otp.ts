import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { isConstantTimeEqual } from '../bytes/is-constant-time-equal.ts'
import { parseHex } from '../bytes/parse-hex.ts'

const codePattern = /^\d{6}$/

/** The inputs of an OTP hash: the code, the id of the OTP record it belongs to, and the server secret. */
export type OtpHashInput = {
  code: string
  otpId: string
  /** Server-side secret of at least 32 bytes (e.g. derived from the master key); never stored with the hash. */
  secret: Uint8Array
}

/**
 * Hashes a one-time code for storage: hex HMAC-SHA256 keyed by the server secret over
 * `["quick-links/otp/v1", otpId, code]` (JSON, so fields cannot run into each other).
 *
 * Why: a 6-digit code has only 10^6 values, so a plain or salted hash in a leaked database is
 * brute-forced in milliseconds; the server key makes the hash useless without the server, and the
 * OTP id ties each hash to its own record.
 *
 * Fails by throwing a `TypeError` when the code is not exactly 6 digits, the otp id is empty or
 * the secret is shorter than 32 bytes.
 */
export function hashOtp(input: OtpHashInput): string {
  if (!codePattern.test(input.code)) throw new TypeError('hashOtp: code must be 6 digits')
  if (input.otpId.length === 0) throw new TypeError('hashOtp: otpId must not be empty')
  if (input.secret.length < 32) throw new TypeError('hashOtp: secret must be at least 32 bytes')
  return bytesToHex(
    hmac(sha256, input.secret, utf8ToBytes(JSON.stringify(['quick-links/otp/v1', input.otpId, input.code]))),
  )
}

/**
 * Checks a submitted code against the stored hash, comparing in constant time.
 *
 * Why: the comparison must not leak, through timing, how much of the stored hash a guess matched.
 *
 * Never throws for user input: a code that is not 6 digits, or a malformed stored hash, is simply
 * not a match. Throws like {@link hashOtp} for a missing otp id or a short secret (server faults).
 */
export function isOtpMatch(input: OtpHashInput & { storedHash: string }): boolean {
  const stored = parseHex(input.storedHash, 32)
  if (stored === undefined || !codePattern.test(input.code)) return false
  const candidate = parseHex(hashOtp(input), 32)
  return candidate !== undefined && isConstantTimeEqual(candidate, stored)
}
