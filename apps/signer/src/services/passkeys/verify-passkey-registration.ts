import { AppError } from '@quicklinks/core/app-error'
import { signerRefusalReasons } from '@quicklinks/protocol/signer-activities'
import { type AuthenticatorTransport, verifyRegistrationResponse } from '@simplewebauthn/server'
import type { StampReplayStore } from '../../crypto/stamps/verify-stamp.ts'
import type { SignerContext } from '../../signer-context.ts'
import { consumePasskeyChallenge } from './passkey-challenge.ts'
import {
  defaultPasskeyTransports,
  getPasskeyRelyingParty,
  passkeyAlgorithms,
} from './passkey-relying-party.ts'
import type { PasskeyRegistration } from './passkey-schemas.ts'

/** What a `signer_auth_methods` row of type `passkey` keeps in `data`. */
export type PasskeyData = {
  name: string
  /** COSE public key, base64url. */
  publicKey: string
  counter: number
  transports: string[]
  /** ISO time. */
  createdAt: string
}

/** A checked new passkey: its credential id (base64url, the row's identifier) and its data. */
export type VerifiedPasskey = { credentialId: string; data: PasskeyData }

/** `details.reason` of a refused attestation. */
export const passkeyRegistrationRefusedReason = 'PASSKEY_REGISTRATION_INVALID'

const knownTransports = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])

/** `AUTHENTICATOR_TRANSPORT_HYBRID` (Turnkey) or `hybrid` (WebAuthn) → `hybrid`; unknown names dropped. */
function toWebAuthnTransports(transports: readonly string[] | undefined): AuthenticatorTransport[] {
  const mapped = (transports ?? [])
    .map((name) => name.replace(/^AUTHENTICATOR_TRANSPORT_/, '').toLowerCase())
    .filter((name): name is AuthenticatorTransport => knownTransports.has(name))
  return mapped.length > 0 ? [...new Set(mapped)] : [...defaultPasskeyTransports]
}

/**
 * Checks a new passkey: its challenge must be one this signer issued and unused (spent here, in
 * `replayStore`), and
 * the attestation must verify with @simplewebauthn/server for the app's origin and relying-party
 * id, with algorithm -7 or -257 and the user-verified flag set (a passkey is a way in). Returns the row to
 * store; transports default to internal and hybrid, the name to `passkey-{timestamp}`.
 *
 * Throws AppError UNAUTHORIZED (reason PASSKEY_CHALLENGE_INVALID, PASSKEY_REGISTRATION_INVALID or
 * USER_VERIFICATION_REQUIRED).
 */
export async function verifyPasskeyRegistration(
  context: SignerContext,
  input: PasskeyRegistration & { name?: string | undefined },
  replayStore: StampReplayStore,
): Promise<VerifiedPasskey> {
  await consumePasskeyChallenge(context, input.challenge, replayStore)
  const relyingParty = getPasskeyRelyingParty(context.config)
  const { attestation } = input
  const transports = toWebAuthnTransports(attestation.transports)
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>
  try {
    verification = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          transports,
        },
      },
      expectedChallenge: input.challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.rpId,
      // A passkey is a way in: the authenticator must have verified the user (PIN, biometrics), so
      // a hand-built `fmt: "none"` attestation from a script proves nothing (docs/signer.md#passkeys).
      requireUserVerification: true,
      supportedAlgorithmIDs: [...passkeyAlgorithms],
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : 'attestation does not verify'
    if (/user verification/i.test(message)) throw refuseUnverifiedPasskey(message)
    throw refuseRegistration(message)
  }
  if (!verification.verified) throw refuseRegistration('attestation does not verify')
  const { credential } = verification.registrationInfo
  const nowMs = context.now()
  return {
    credentialId: credential.id,
    data: {
      name: input.name ?? `passkey-${nowMs}`,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports,
      createdAt: new Date(nowMs).toISOString(),
    },
  }
}

function refuseUnverifiedPasskey(message: string): AppError {
  return new AppError('UNAUTHORIZED', {
    message,
    userMessage:
      'Your passkey must verify it’s you (PIN, fingerprint or face). Try again with one that does.',
    details: { reason: signerRefusalReasons.USER_VERIFICATION_REQUIRED },
  })
}

function refuseRegistration(message: string): AppError {
  return new AppError('UNAUTHORIZED', {
    message,
    userMessage: 'This passkey could not be verified. Try again.',
    details: { reason: passkeyRegistrationRefusedReason },
  })
}
