import { p256 } from '@noble/curves/nist.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { z } from 'zod/mini'
import { activityStatuses } from './activity-statuses.ts'

// The field schemas the signer-call table (signer-activities.ts, signer-routes.ts) builds its
// parameter and answer schemas from. zod/mini (docs/decisions/0024): this package ships in the
// browser bundle (wallet SDK, frames), and fastify-type-provider-zod takes any zod v4 core schema.

/** An e-mail address, trimmed and lower-cased (so `A@X.io ` and `a@x.io` are one account). */
export const emailSchema = z.pipe(
  z.string().check(z.trim(), z.toLowerCase()),
  z.email({ error: 'must be an e-mail address' }).check(z.maxLength(254, 'must be at most 254 characters')),
)

const e164Pattern = /^\+[1-9]\d{6,14}$/

/**
 * A phone number in E.164 (`+14155550123`); spaces, dots, dashes and brackets people type are
 * dropped first.
 */
export const phoneSchema = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value: string) => value.replace(/[\s().-]/g, '')),
  ),
  z
    .string()
    .check(z.regex(e164Pattern, 'must be a phone number with its country code, such as +14155550123')),
)

/** Whether `value` is an uncompressed P-256 point in hex (`04…`, 130 characters) on the curve. */
function isUncompressedP256PublicKey(value: string): boolean {
  if (!/^04[0-9a-fA-F]{128}$/.test(value)) return false
  try {
    // A key that is not on the curve must never reach ECDH (invalid-curve attacks).
    p256.Point.fromBytes(hexToBytes(value)).assertValidity()
    return true
  } catch {
    return false
  }
}

/** A frame's key for HPKE: an uncompressed P-256 point in hex (`04…`, 130 characters), lower-cased. */
export const targetPublicKeySchema = z.pipe(
  z.string().check(
    z.refine(isUncompressedP256PublicKey, {
      error: 'must be an uncompressed P-256 public key in hex (130 characters starting with 04)',
    }),
  ),
  z.transform((value: string) => value.toLowerCase()),
)

/** Session-key lifetime a client may ask for: 1 minute to 1 day (a string of digits is accepted too). */
export const expirationSecondsSchema = z.pipe(
  z.pipe(
    z.union([z.number(), z.string().check(z.regex(/^\d{1,9}$/))]),
    z.transform((value: number | string) => Number(value)),
  ),
  z.number().check(z.int(), z.gte(60, 'must be at least 60'), z.lte(86_400, 'must be at most 86400')),
)

/** A code as a person types it: at most 32 characters, spaces dropped. */
export const codeSchema = z.pipe(
  z.string().check(z.maxLength(32)),
  z.transform((value: string) => value.replace(/\s/g, '')),
)

/** A `verify-otp` token: the proof that a contact received a code. */
export const verificationTokenSchema = z.string().check(z.minLength(1), z.maxLength(4096))

// Factor ids are uuids (signer_auth_methods.id): anything else is refused here, not by the database (a 500).
export const multiFactorIdSchema = z.uuid({
  error: 'must be a multiFactorId that auth-list-multi-factors answered',
})

const base64UrlSchema = (max: number) =>
  z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url'))

/**
 * A new passkey as the browser made it (Turnkey's `attestation` shape): the credential id, the
 * client data and the attestation object, base64url, and the transports the authenticator reported
 * (Turnkey's transport names and WebAuthn's own, both accepted).
 */
export const passkeyAttestationSchema = z.object({
  credentialId: base64UrlSchema(1024),
  clientDataJson: base64UrlSchema(4096),
  attestationObject: base64UrlSchema(16_384),
  transports: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(8))),
})

/** `{challenge, attestation}`: the server-issued challenge the attestation answers (passkey-challenge). */
export const passkeyRegistrationSchema = z.object({
  challenge: z.string().check(z.minLength(1), z.maxLength(128)),
  attestation: passkeyAttestationSchema,
})

/** An authenticator name; the default is `passkey-{timestamp}` (docs/signer.md#passkeys). */
export const passkeyNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(64))

/** The `X-Stamp-WebAuthn` header value: Turnkey's JSON, every field base64url. */
export const webAuthnStampSchema = z.object({
  authenticatorData: base64UrlSchema(4096),
  clientDataJson: base64UrlSchema(4096),
  credentialId: base64UrlSchema(1024),
  signature: base64UrlSchema(1024),
})

/** The EIP-55 checksummed form of a 20-byte hex address (what viem's getAddress answers). */
function toChecksumAddress(address: string): `0x${string}` {
  const lower = address.slice(2).toLowerCase()
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)))
  let checksummed = '0x'
  for (let index = 0; index < lower.length; index++) {
    const character = lower.charAt(index)
    checksummed += Number.parseInt(hash.charAt(index), 16) >= 8 ? character.toUpperCase() : character
  }
  return checksummed as `0x${string}`
}

/** An EVM address as a member is named: 0x and 20 bytes, answered checksummed. */
export const evmMemberAddressSchema = z.pipe(
  z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte EVM address')),
  z.transform(toChecksumAddress),
)

/** A 65-byte ECDSA signature in hex. */
export const signatureSchema = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte hex signature'))

/** A hex string as the signer answers one (an EVM address, a signature): `0x` and the rest. */
export const hexAnswerSchema = z.templateLiteral(['0x', z.string()])

/** One activity as the signer answers it (`activity` of a signing, export or quorum call). */
export const activityAnswerSchema = z.object({
  id: z.string(),
  type: z.string(),
  status: z.enum(activityStatuses),
  createdAt: z.string(),
  updatedAt: z.string(),
  result: z.optional(z.record(z.string(), z.unknown())),
})

/** `{activity}`: what an export, `get-activity` and every multi-owner call but create answer. */
export const activityEnvelopeAnswerSchema = z.object({ activity: activityAnswerSchema })

/** A completed sign-in's answer: a credential bundle encrypted to the caller's target key. */
export const credentialAnswerSchema = z.object({
  credentialBundle: z.string(),
  isNewUser: z.boolean(),
  orgId: z.string(),
})

/** A confirmed second factor (docs/signer.md#multi-factor). */
export const multiFactorAnswerSchema = z.object({
  multiFactorId: z.string(),
  multiFactorType: z.literal('totp'),
  name: z.string(),
  createdAt: z.string(),
})

/** `{multiFactors}`: the user's confirmed factors after a list, confirmation or removal. */
export const multiFactorsAnswerSchema = z.object({ multiFactors: z.array(multiFactorAnswerSchema) })

/** `{removed}`: a passkey's or a provider's removal. */
export const removedAnswerSchema = z.object({ removed: z.boolean() })

/** Any JSON object; parameters of a call that takes none (extra fields are kept, as Turnkey's are). */
export const anyParametersSchema = z.looseObject({})
