import type { SignerConfig } from '../../signer-config.ts'

/** The passkey constants (docs/signer.md#passkeys). */
export const passkeyTimeoutMs = 300_000
/** COSE algorithms a new passkey may use: ES256 (-7) and RS256 (-257). */
export const passkeyAlgorithms = [-7, -257] as const
/** Transports assumed when the authenticator reports none. */
export const defaultPasskeyTransports = ['internal', 'hybrid'] as const

/**
 * The relying party passkeys are made for and checked against: the web app. Its id and name are
 * the app's hostname (from PUBLIC_ORIGIN), and a ceremony must have run on the app's origin.
 */
export type PasskeyRelyingParty = { rpId: string; rpName: string; origin: string }

export function getPasskeyRelyingParty(config: Pick<SignerConfig, 'publicOrigin'>): PasskeyRelyingParty {
  const url = new URL(config.publicOrigin)
  return { rpId: url.hostname, rpName: url.hostname, origin: url.origin }
}
