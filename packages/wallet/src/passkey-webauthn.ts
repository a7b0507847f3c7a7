import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import { startAuthentication, startRegistration } from '@simplewebauthn/browser'
import type { PasskeyAttestationResult, PasskeyStamp } from './passkey-types.ts'
import { createWalletError } from './wallet-error.ts'

/** Passkey prompts time out after 300 000 ms; user verification is preferred (docs/signer.md#passkeys). */
export const passkeyTimeoutMs = 300_000
/** Transports assumed when the authenticator reports none (docs/signer.md#passkeys). */
export const assumedPasskeyTransports = ['internal', 'hybrid'] as const

/** Throws 'webauthn is not supported by this browser' when `navigator.credentials` is missing. */
export function assertWebAuthnSupported(): void {
  const credentials = (globalThis as { navigator?: { credentials?: unknown } }).navigator?.credentials
  if (credentials === undefined || credentials === null) {
    throw createWalletError('webauthn is not supported by this browser')
  }
}

/** The default relying-party id and name: the current hostname (docs/signer.md#passkeys). */
export function currentHostname(): string {
  const hostname = (globalThis as { location?: { hostname?: string } }).location?.hostname
  if (!hostname) throw createWalletError('webauthn is not supported by this browser')
  return hostname
}

const toTurnkeyTransport = (name: string) => `AUTHENTICATOR_TRANSPORT_${name.toUpperCase()}`

/**
 * Creates a passkey for `challenge` (the signer's `passkey-challenge`): algorithms -7 and -257,
 * resident key preferred, user verification preferred, timeout 300 000 ms, relying party `rpId`
 * (default the hostname), user name `userName` (the e-mail, else 'anonymous'). Transports the
 * authenticator did not report are assumed to be internal and hybrid.
 *
 * Rejects with 'webauthn is not supported by this browser', or the browser's error (cancelled,
 * timed out, an authenticator that already holds a passkey of this user).
 */
export async function createPasskey(input: {
  challenge: string
  userName: string
  rpId?: string
  rpName?: string
}): Promise<PasskeyAttestationResult> {
  assertWebAuthnSupported()
  const rpId = input.rpId ?? currentHostname()
  const authenticatorUserId = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
  const response = await startRegistration({
    optionsJSON: {
      challenge: input.challenge,
      rp: { id: rpId, name: input.rpName ?? rpId },
      user: { id: authenticatorUserId, name: input.userName, displayName: input.userName },
      pubKeyCredParams: [
        { type: 'public-key', alg: -7 },
        { type: 'public-key', alg: -257 },
      ],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      timeout: passkeyTimeoutMs,
      attestation: 'none',
    },
  })
  const reported = response.response.transports ?? []
  const transports = (reported.length > 0 ? reported : [...assumedPasskeyTransports]).map(toTurnkeyTransport)
  return {
    challenge: input.challenge,
    authenticatorUserId,
    attestation: {
      credentialId: response.id,
      clientDataJson: response.response.clientDataJSON,
      attestationObject: response.response.attestationObject,
      transports,
    },
    transports,
  }
}

/**
 * Stamps `body` with a passkey, as Turnkey's @turnkey/webauthn-stamper does: an assertion whose
 * challenge is the UTF-8 bytes of the body's lower-case hex SHA-256, for relying party `rpId`
 * (default the hostname), any of the user's passkeys (discoverable) or those in `credentialIds`.
 * The header value is JSON `{authenticatorData, clientDataJson, credentialId, signature}`.
 *
 * Rejects with 'webauthn is not supported by this browser' or the browser's error.
 */
export async function stampWithPasskey(
  body: string,
  options: { rpId?: string; credentialIds?: string[] } = {},
): Promise<PasskeyStamp> {
  assertWebAuthnSupported()
  const challenge = bytesToHex(sha256(utf8ToBytes(body)))
  const response = await startAuthentication({
    optionsJSON: {
      challenge: base64urlnopad.encode(utf8ToBytes(challenge)),
      rpId: options.rpId ?? currentHostname(),
      userVerification: 'required',
      timeout: passkeyTimeoutMs,
      allowCredentials: (options.credentialIds ?? []).map((id) => ({ id, type: 'public-key' as const })),
    },
  })
  return {
    stampHeaderName: 'X-Stamp-WebAuthn',
    stampHeaderValue: JSON.stringify({
      authenticatorData: response.response.authenticatorData,
      clientDataJson: response.response.clientDataJSON,
      credentialId: response.id,
      signature: response.response.signature,
    }),
  }
}
