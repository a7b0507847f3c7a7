import type {
  passkeyAttestationSchema,
  passkeyRegistrationSchema,
} from '@quicklinks/protocol/signer-field-schemas'
import type { z } from 'zod/mini'

// The schemas are the signer-call table's (@quicklinks/protocol/signer-field-schemas): one
// definition for the signer's routes and the SDK.

/** A new passkey as the browser made it (Turnkey's `attestation` shape). */
export type PasskeyAttestation = z.output<typeof passkeyAttestationSchema>

/** `{challenge, attestation}`: the server-issued challenge the attestation answers (passkey-challenge). */
export type PasskeyRegistration = z.output<typeof passkeyRegistrationSchema>
