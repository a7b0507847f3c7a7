import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import { isConstantTimeEqual } from '../bytes/is-constant-time-equal.ts'
import { parseHex } from '../bytes/parse-hex.ts'

/** 256 bits: a link secret is never guessed, so only the failure budget's bookkeeping sees wrong ones. */
const secretBytes = 32
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const secretPattern = /^[A-Za-z0-9_-]{43}$/

/** A magic link's token split into the code row it opens and the secret that proves the mail was read. */
export type MagicLinkToken = { otpId: string; secret: string }

/**
 * Makes the token a magic link carries: `{otpId}.{secret}`, the secret 32 CSPRNG bytes in
 * base64url. Returns the token (for the link only) and the keyed hash to store in its place.
 *
 * Why: the link is opened in the browser and exchanged there for a session key, so it must name
 * its code row and carry a secret nobody can guess; only the hash is kept, as for codes.
 *
 * Fails by throwing like {@link hashMagicLinkSecret} for an empty otp id or a short key.
 */
export function createMagicLinkToken(input: { otpId: string; hashKey: Uint8Array }): {
  token: string
  secretHash: string
} {
  const secret = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(secretBytes)))
  return {
    token: `${input.otpId}.${secret}`,
    secretHash: hashMagicLinkSecret({ otpId: input.otpId, secret, hashKey: input.hashKey }),
  }
}

/** Splits a magic-link token; undefined when it is not one (wrong shape, not a UUID, short secret). */
export function parseMagicLinkToken(token: string): MagicLinkToken | undefined {
  const [otpId = '', secret = '', ...rest] = token.split('.')
  if (rest.length > 0 || !uuidPattern.test(otpId) || !secretPattern.test(secret)) return undefined
  return { otpId, secret }
}

/**
 * The stored form of a link secret: hex HMAC-SHA256 under the server's code-hash key over
 * `["quick-links/magic-link/v1", otpId, secret]`, bound to its code row like a code's hash.
 *
 * Fails by throwing a `TypeError` for an empty otp id or a key shorter than 32 bytes.
 */
export function hashMagicLinkSecret(input: { otpId: string; secret: string; hashKey: Uint8Array }): string {
  if (input.otpId.length === 0) throw new TypeError('hashMagicLinkSecret: otpId must not be empty')
  if (input.hashKey.length < 32) throw new TypeError('hashMagicLinkSecret: key must be at least 32 bytes')
  return bytesToHex(
    hmac(
      sha256,
      input.hashKey,
      utf8ToBytes(JSON.stringify(['quick-links/magic-link/v1', input.otpId, input.secret])),
    ),
  )
}

/**
 * Checks a link secret against the stored hash in constant time. Never throws for user input: a
 * malformed secret or stored hash is simply not a match.
 */
export function isMagicLinkSecretMatch(input: {
  otpId: string
  secret: string
  hashKey: Uint8Array
  storedHash: string
}): boolean {
  const stored = parseHex(input.storedHash, 32)
  if (stored === undefined || !secretPattern.test(input.secret)) return false
  const candidate = parseHex(hashMagicLinkSecret(input), 32)
  return candidate !== undefined && isConstantTimeEqual(candidate, stored)
}
