/** `passkey-challenge`: a single-use registration challenge and the signer's passkey options. */
export type PasskeyChallenge = {
  challenge: string
  expiresAtMs: number
  rp: { id: string; name: string }
  timeout: number
  algorithms: number[]
  defaultTransports: string[]
}

/** A new passkey as the signer takes it (Turnkey's attestation shape, base64url fields). */
export type PasskeyAttestation = {
  credentialId: string
  clientDataJson: string
  attestationObject: string
  transports: string[]
}

/** The passkey attestation result (docs/signer.md#passkeys): the challenge, the user handle, the attestation, its transports. */
export type PasskeyAttestationResult = {
  challenge: string
  authenticatorUserId: string
  attestation: PasskeyAttestation
  transports: string[]
}

/** A passkey stamp: the X-Stamp-WebAuthn header and its JSON value. */
export type PasskeyStamp = { stampHeaderName: 'X-Stamp-WebAuthn'; stampHeaderValue: string }

/** `signup` with a passkey; `targetPublicKey` gets the first session at once. */
export type PasskeySignupRequest = {
  passkey: { challenge: string; attestation: PasskeyAttestation }
  email?: string
  authenticatorName?: string
  targetPublicKey?: string
  expirationSeconds?: number
}

/** What `signup` with a passkey answers. */
export type PasskeySignupResult = {
  orgId: string
  otpId: string
  address: `0x${string}`
  userId: string
  solanaAddress: string
  credentialBundle?: string
  isNewUser?: boolean
}

/** A passkey of the signed-in user, as add-authenticator answers it. */
export type AddedPasskey = { authenticatorId: string; name: string; createdAt: string }
