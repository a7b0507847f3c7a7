/** The only second-factor type (docs/signer.md#multi-factor). */
export const multiFactorTypes = ['totp'] as const
export type MultiFactorType = (typeof multiFactorTypes)[number]

/** A confirmed second factor as the signer lists it (never its secret). */
export type MultiFactor = {
  multiFactorId: string
  multiFactorType: MultiFactorType
  name: string
  createdAt: string
}

/**
 * `auth-request-multi-factor`: a new, unconfirmed factor with its secret, shown once, as base32
 * text (manual entry) and as an otpauth URI (the QR code). A first code confirms it.
 */
export type MultiFactorEnrolment = MultiFactor & { multiFactorSecret: string; multiFactorTotpUrl: string }

/** A code for one factor, as `auth-validate-multi-factors` takes it. */
export type MultiFactorCode = { multiFactorId: string; multiFactorCode: string }

/** What `auth-validate-multi-factors` answers: `payload.credentialBundle` (docs/signer.md#auth-validate-multi-factors). */
export type ValidateMultiFactorsResult = {
  payload?: { credentialBundle?: string }
  orgId?: string
  isNewUser?: boolean
}

/** Whether `type` is a second-factor type the signer supports. Never throws. */
export function isMultiFactorType(type: unknown): type is MultiFactorType {
  return typeof type === 'string' && (multiFactorTypes as readonly string[]).includes(type)
}

/**
 * What `otp` and `magic-link` answer for an account with a confirmed factor: no session yet, but
 * a sealed payload to hand back with a code of one of `multiFactors`.
 */
export type MfaRequiredResult = {
  status: 'MFA_REQUIRED'
  encryptedPayload: string
  multiFactors: { multiFactorId: string; multiFactorType: string }[]
  orgId?: string
}

/** Messages of the SDK's MFA errors (docs/signer.md#sdk-mfa). */
export const noPendingMfaContextMessage = 'No pending MFA context found. Call submitOtpCode() first.'
export const mfaFactorIdMismatchMessage = 'MFA factor ID mismatch'
export const noCredentialBundleFromValidateMessage =
  'Request to validateMultiFactors did not return a credential bundle'
export function unsupportedMultiFactorTypeMessage(type: string): string {
  return `Unsupported MFA factor type: ${type}`
}
