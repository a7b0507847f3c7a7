import type { ActivityStatus } from '@quicklinks/protocol/activity-statuses'
import type { StepUpProof } from '@quicklinks/protocol/step-up'
import type { Address } from 'viem'

/** docs/signer.md#signer-status. The AUTHENTICATING_* and AWAITING_* statuses count as authenticating. */
export const signerStatuses = [
  'INITIALIZING',
  'DISCONNECTED',
  'CONNECTED',
  'AUTHENTICATING_EMAIL',
  'AUTHENTICATING_PASSKEY',
  'AUTHENTICATING_OAUTH',
  'AUTHENTICATING_JWT',
  'AWAITING_EMAIL_AUTH',
  'AWAITING_SMS_AUTH',
  'AWAITING_OTP_AUTH',
  'AWAITING_MFA_AUTH',
] as const

export type SignerStatus = (typeof signerStatuses)[number]

/** Whether a status is one of the authenticating or awaiting ones (docs/signer.md#signer-status). */
export function isAuthenticatingStatus(status: SignerStatus): boolean {
  return status.startsWith('AUTHENTICATING_') || status.startsWith('AWAITING_')
}

/** The signer user (docs/signer.md#signer-user). Passkey, OAuth and JWT fields stay unset until those logins exist. */
export type SignerUser = {
  orgId: string
  userId: string
  /** The EVM account (m/44'/60'/0'/0/0). */
  address: Address
  /** The Solana account (m/44'/501'/0'/0'), base58. */
  solanaAddress: string | null
  email: string | null
  phone: string | null
  credentialId?: string
  idToken?: string
  accessToken?: string
  claims?: Record<string, unknown>
}

/** A stored failure (docs/signer.md#signer-user). */
export type StoredError = { name: string; message: string }

/** MFA status (docs/signer.md#signer-user). */
export type MfaStatus = { mfaRequired: boolean; mfaFactorId: string | null }

/**
 * Auth-linking status (docs/signer.md#signer-user): a social login whose e-mail has an account,
 * waiting for that e-mail's code. The provider identity stays at the signer (no id token here).
 */
export type AuthLinkingStatus = {
  status: string
  email: string
  providerName: string
  otpId: string
  orgId: string
}

/** One signing or export as the signer records it. */
export type Activity<TResult = Record<string, unknown>> = {
  id: string
  type: string
  status: ActivityStatus | (string & {})
  createdAt?: string
  updatedAt?: string
  result?: TResult
}

/** `POST /signer/v1/signer-config`. */
export type SignerConfig = {
  framesOrigin: string
  authFrameUrl: string
  exportFrameUrl: string
  /** The service's export signing key, uncompressed hex; the export frame pins it. */
  exportSignerPublicKey: string
  sessionExpirationSeconds: number
  authMethods: string[]
  /** Social login's providers (docs/signer.md#social-login). */
  authProviders?: { id: string; isCustomProvider: boolean; authEndpoint: string; clientId: string }[]
  /** Where providers send the browser back. */
  oauthCallbackUrl?: string
}

/** `whoami`: the signed-in user and their wallet. */
export type WhoamiResult = {
  orgId: string
  userId: string
  address: Address
  solanaAddress: string | null
  email: string | null
  phone: string | null
  walletId: string
}

export type EmailMode = 'otp' | 'magicLink'

export type EmailAuthRequest = {
  email: string
  emailMode: EmailMode
  targetPublicKey: string
  expirationSeconds?: number
  redirectParams?: string
}

export type SmsAuthRequest = { phone: string; targetPublicKey: string; expirationSeconds?: number }

/**
 * `auth-jwt` (docs/signer.md#auth-jwt): a JWT from an issuer the signer is configured with, the id
 * of that provider, and the auth frame's key the session is encrypted to.
 */
export type JwtAuthRequest = {
  jwt: string
  targetPublicKey: string
  authProvider: string
  expirationSeconds?: number
}

/** What a completed sign-in answers (`magic-link`, `auth-jwt`; `otp` without a second factor). */
export type SignInResult = { credentialBundle: string; isNewUser: boolean; orgId: string }

/**
 * `signup` (the account-creation call): the code's orgId and otpId, and the user id and addresses
 * of the wallet reserved for the code. The signer answers this shape for every contact, so it
 * tells nothing about whether one has an account: the reservation becomes the account only if the
 * contact has none when the code is used, and `otp`'s `isNewUser` says whether it did
 * (docs/decisions/0019). Nothing signs before the code is used.
 */
export type SignupResult = {
  orgId: string
  otpId: string
  address: Address
  userId: string
  solanaAddress: string
}

/** `otp` answers a credential bundle, or (once second factors exist) that one is required. */
export type OtpResult =
  | {
      credentialBundle: string
      isNewUser?: boolean
      /**
       * The account's orgId, which can differ from the one `signup` answered: an address that
       * another account signed up with and later moved off gets a new organization.
       */
      orgId?: string
    }
  | {
      status: 'MFA_REQUIRED'
      encryptedPayload: string
      multiFactors: { multiFactorId: string; multiFactorType: string }[]
    }

/** A passkey in `list-auth-methods`: the credential id, its name, when it was added (ISO 8601). */
export type AuthMethodPasskey = { id: string; name: string | null; createdAt: string }

/** A linked OAuth / OIDC provider in `list-auth-methods`. */
export type AuthMethodOauthProvider = {
  providerId: string | null
  issuer: string
  subject: string
  email: string | null
  createdAt: string
}

/** What `list-auth-methods` returns (docs/signer.md#list-auth-methods). */
export type AuthMethods = {
  email: string | null
  phone: string | null
  oauthProviders: AuthMethodOauthProvider[]
  passkeys: AuthMethodPasskey[]
}

/**
 * "Confirm it's you" for a change of a way in (docs/signer.md#step-up): a `verify-otp` token for
 * the account's e-mail or phone (`verificationToken`), a fresh id token of a linked provider
 * (`oidcToken` with `providerName`), or `usePasskey` (one of the account's passkeys stamps the
 * change, user verified); plus `totpCode`, the authenticator app's current code, when the account
 * has one.
 */
export type StepUp = StepUpProof & {
  usePasskey?: boolean
  /** The account's passkeys (list-auth-methods), so the browser offers only those, not a removed one. */
  passkeyIds?: string[]
}
