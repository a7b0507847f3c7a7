import { type AccessChangeCallName, signerActivities } from './signer-activities.ts'

/**
 * The re-authentication a `reauth` call carries in `parameters.stepUp` (docs/signer.md#step-up):
 * one proof of a way in the account already has, plus the authenticator code when the account has
 * a confirmed TOTP factor. A call stamped by one of the account's passkeys with user verification
 * (X-Stamp-WebAuthn, UV flag set) is its own re-authentication and needs only `totpCode`.
 */
export type StepUpProof = {
  /** A `verify-otp` token for the account's e-mail or phone: single use, 10 minutes. */
  verificationToken?: string
  /** An id token of a provider linked to the account, issued in the last 5 minutes: single use. */
  oidcToken?: string
  /** The provider (`id` in OAUTH_PROVIDERS) that issued `oidcToken`. */
  providerName?: string
  /** For an account that signs in with a custom JWT: a fresh one (`iat` in the last 5 minutes), single use. */
  jwt?: string
  /** The current code of the account's authenticator app, when it has one. */
  totpCode?: string
}

/** The parameter a `reauth` call carries its {@link StepUpProof} in. */
export const stepUpParameterName = 'stepUp'

/** The largest `parameters` object (as JSON) the auth frame builds a call around: attestations fit. */
const maxParametersJsonLength = 65_536

/**
 * Reads a {@link StepUpProof} from a message: each field, when present, a string of 1–16384
 * characters (a code of at most 32). Undefined for anything else (extra fields are dropped);
 * never throws.
 */
export function parseStepUpProof(value: unknown): StepUpProof | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const { verificationToken, oidcToken, providerName, jwt, totpCode } = value as Record<string, unknown>
  const proof: StepUpProof = {}
  if (verificationToken !== undefined) {
    if (!isShortText(verificationToken, 4096)) return undefined
    proof.verificationToken = verificationToken
  }
  if (oidcToken !== undefined) {
    if (!isShortText(oidcToken, 16_384)) return undefined
    proof.oidcToken = oidcToken
  }
  if (providerName !== undefined) {
    if (!isShortText(providerName, 64)) return undefined
    proof.providerName = providerName
  }
  if (jwt !== undefined) {
    if (!isShortText(jwt, 16_384)) return undefined
    proof.jwt = jwt
  }
  if (totpCode !== undefined) {
    if (!isShortText(totpCode, 32)) return undefined
    proof.totpCode = totpCode
  }
  return proof
}

/** Whether `name` is a call the auth frame builds with a step-up (`frames` and `reauth` in the table). */
export function isAccessChangeCall(name: unknown): name is AccessChangeCallName {
  if (typeof name !== 'string' || !Object.hasOwn(signerActivities, name)) return false
  const call = signerActivities[name as keyof typeof signerActivities]
  return call.builder === 'frames' && call.stepUp === 'reauth'
}

/**
 * Reads the parameters of an access change from a message: a plain JSON object of at most 64 KiB,
 * without a `stepUp` of its own (the proof travels beside it). Undefined otherwise; never throws.
 */
export function parseAccessChangeParameters(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  if (Object.hasOwn(value, stepUpParameterName)) return undefined
  try {
    const json = JSON.stringify(value)
    if (json.length > maxParametersJsonLength) return undefined
    return JSON.parse(json) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/** The parameters of a `reauth` call: the change's, with the proof under `stepUp`. */
export function withStepUp(parameters: Record<string, unknown>, proof: StepUpProof): Record<string, unknown> {
  return { ...parameters, [stepUpParameterName]: proof }
}

function isShortText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength
}
