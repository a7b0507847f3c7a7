import { z } from 'zod'

const base64UrlSchema = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url')

/** Turnkey's transport names and WebAuthn's own, both accepted. */
const transportSchema = z.string().max(64)

/**
 * A new passkey as the browser made it (Turnkey's `attestation` shape): the credential id, the
 * client data and the attestation object, base64url, and the transports the authenticator reported.
 */
export const passkeyAttestationSchema = z.object({
  credentialId: base64UrlSchema(1024),
  clientDataJson: base64UrlSchema(4096),
  attestationObject: base64UrlSchema(16_384),
  transports: z.array(transportSchema).max(8).optional(),
})

export type PasskeyAttestation = z.output<typeof passkeyAttestationSchema>

/** `{challenge, attestation}`: the server-issued challenge the attestation answers (passkey-challenge). */
export const passkeyRegistrationSchema = z.object({
  challenge: z.string().min(1).max(128),
  attestation: passkeyAttestationSchema,
})

export type PasskeyRegistration = z.output<typeof passkeyRegistrationSchema>

/** An authenticator name; the default is `passkey-{timestamp}` (docs/signer.md#passkeys). */
export const passkeyNameSchema = z.string().trim().min(1).max(64)

/** The `X-Stamp-WebAuthn` header value: Turnkey's JSON, every field base64url. */
export const webAuthnStampSchema = z.object({
  authenticatorData: base64UrlSchema(4096),
  clientDataJson: base64UrlSchema(4096),
  credentialId: base64UrlSchema(1024),
  signature: base64UrlSchema(1024),
})
