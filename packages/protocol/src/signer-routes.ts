import { z } from 'zod/mini'
import { redirectParamsSchema } from './redirect-params-schema.ts'
import {
  codeSchema,
  credentialAnswerSchema,
  emailSchema,
  expirationSecondsSchema,
  multiFactorIdSchema,
  passkeyNameSchema,
  passkeyRegistrationSchema,
  phoneSchema,
  targetPublicKeySchema,
} from './signer-field-schemas.ts'

// The signer's unstamped calls (sign-in, codes, configuration): a sibling of the stamped-call
// table (signer-activities.ts) with each call's path, request schema and answer schema. The
// signer's routes and the SDK both take them from here (docs/signer.md#signer-calls).

/** Exactly one of `email` and `phone`. */
const requireOneContact = z.superRefine(
  (value: { email?: string | undefined; phone?: string | undefined }, context) => {
    if ((value.email === undefined) === (value.phone === undefined)) {
      context.addIssue({ code: 'custom', path: ['email'], message: 'give either an email or a phone' })
    }
  },
)

const orgIdSchema = z.string().check(z.minLength(1), z.maxLength(64))

/** `auth` and `signup` by contact: a code (or, for e-mail, a magic link) to an e-mail or a phone. */
export const authRequestSchema = z
  .object({
    email: z.optional(emailSchema),
    phone: z.optional(phoneSchema),
    emailMode: z.optional(z.enum(['otp', 'magicLink'])),
    targetPublicKey: z.optional(targetPublicKeySchema),
    expirationSeconds: z.optional(expirationSecondsSchema),
    redirectParams: z.optional(redirectParamsSchema),
    multiFactors: z.optional(z.unknown()),
  })
  .check(requireOneContact)

/** `signup` with a passkey: `passkey {challenge, attestation}`, optional e-mail (the passkey's user name). */
export const passkeySignupRequestSchema = z.object({
  passkey: passkeyRegistrationSchema,
  email: z.optional(emailSchema),
  authenticatorName: z.optional(passkeyNameSchema),
  targetPublicKey: z.optional(targetPublicKeySchema),
  expirationSeconds: z.optional(expirationSecondsSchema),
})

/**
 * What `signup` answers: the code's orgId and otpId, and the user id and addresses of the wallet
 * reserved for the code. The same shape for every contact; the reservation becomes the account
 * only if the contact has none when the code is used (docs/decisions/0019).
 */
export const signupAnswerSchema = z.object({
  orgId: z.string(),
  otpId: z.string(),
  address: z.templateLiteral(['0x', z.string()]),
  userId: z.string(),
  solanaAddress: z.string(),
  // Passkey sign-up only (docs/signer.md#passkey-signup): the first session, and isNewUser true.
  credentialBundle: z.optional(z.string()),
  isNewUser: z.optional(z.boolean()),
})

/** MFA_REQUIRED (docs/signer.md#mfa-required): the sealed sign-in and the factors that can complete it. */
export const mfaRequiredAnswerSchema = z.object({
  status: z.literal('MFA_REQUIRED'),
  encryptedPayload: z.string(),
  multiFactors: z.array(z.object({ multiFactorId: z.string(), multiFactorType: z.literal('totp') })),
  orgId: z.string(),
})

/** A code, link or JWT sign-in's answer: a credential bundle, or MFA_REQUIRED. */
export const contactSignInAnswerSchema = z.union([credentialAnswerSchema, mfaRequiredAnswerSchema])

/** Social login's providers as `prepare-oauth` answers them (docs/signer.md#social-login). */
export const publicOauthProviderSchema = z.object({
  id: z.string(),
  isCustomProvider: z.boolean(),
  authEndpoint: z.string(),
  clientId: z.string(),
  scope: z.optional(z.string()),
  claims: z.optional(z.string()),
  otherParameters: z.optional(z.record(z.string(), z.string())),
})

/** What `signer-config` answers: what the SDK needs before it can sign anyone in. */
export const signerConfigAnswerSchema = z.object({
  framesOrigin: z.string(),
  authFrameUrl: z.string(),
  exportFrameUrl: z.string(),
  exportSignerPublicKey: z.string(),
  sessionExpirationSeconds: z.number(),
  authMethods: z.array(z.enum(['email', 'sms'])),
  /** Social login's providers whose discovery document could be read (docs/signer.md#social-login). */
  authProviders: z.array(
    z.object({
      id: z.string(),
      isCustomProvider: z.boolean(),
      authEndpoint: z.string(),
      clientId: z.string(),
    }),
  ),
  oauthCallbackUrl: z.string(),
})

/** The query a provider sends the browser back to `oauth-callback` with. */
export const oauthCallbackQuerySchema = z.object({
  code: z.optional(z.string().check(z.maxLength(4096))),
  state: z.optional(z.string().check(z.maxLength(8192))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(1024))),
})

/** A body the call ignores: none, or any JSON object. */
const optionalEmptyBodySchema = z.optional(z.looseObject({}))

/**
 * Every unstamped `/signer/v1` call: its path, its request body's schema and its 200 answer's.
 * `auth-passkey` takes a stamped body (a passkey's assertion over Turnkey's stamp-login body) but
 * no session, so it is here; a multi-owner member's approval body is memberApprovalBodySchema
 * (signer-call-schemas.ts).
 */
export const signerRoutes = {
  lookup: {
    path: 'lookup',
    request: z
      .object({ email: z.optional(emailSchema), phone: z.optional(phoneSchema) })
      .check(requireOneContact),
    answer: z.object({ orgId: z.string() }),
  },
  signup: {
    path: 'signup',
    request: z.union([passkeySignupRequestSchema, authRequestSchema]),
    answer: signupAnswerSchema,
  },
  auth: {
    path: 'auth',
    request: authRequestSchema,
    answer: z.object({ orgId: z.string(), otpId: z.string() }),
  },
  otp: {
    path: 'otp',
    request: z.object({
      orgId: orgIdSchema,
      otpId: z.uuid({ error: 'must be the otpId that auth returned' }),
      otpCode: codeSchema,
      targetPublicKey: targetPublicKeySchema,
      expirationSeconds: z.optional(expirationSecondsSchema),
      multiFactors: z.optional(z.unknown()),
    }),
    answer: contactSignInAnswerSchema,
  },
  magicLink: {
    path: 'magic-link',
    request: z.object({
      orgId: orgIdSchema,
      token: z.string().check(z.maxLength(128, 'must be the bundle parameter of the magic link')),
      targetPublicKey: targetPublicKeySchema,
      expirationSeconds: z.optional(expirationSecondsSchema),
    }),
    answer: contactSignInAnswerSchema,
  },
  authJwt: {
    path: 'auth-jwt',
    request: z.object({
      jwt: z.string().check(z.maxLength(16_384, 'must be a JWT of at most 16 KiB')),
      authProvider: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
      targetPublicKey: targetPublicKeySchema,
      expirationSeconds: z.optional(expirationSecondsSchema),
    }),
    answer: contactSignInAnswerSchema,
  },
  initOtp: {
    path: 'init-otp',
    request: z.object({
      otpType: z.enum(['OTP_TYPE_EMAIL', 'OTP_TYPE_SMS']),
      contact: z.string().check(z.maxLength(320)),
    }),
    answer: z.object({ otpId: z.string() }),
  },
  verifyOtp: {
    path: 'verify-otp',
    request: z.object({
      otpId: z.uuid({ error: 'must be the otpId that init-otp returned' }),
      otpCode: codeSchema,
    }),
    answer: z.object({ verificationToken: z.string() }),
  },
  signerConfig: { path: 'signer-config', request: optionalEmptyBodySchema, answer: signerConfigAnswerSchema },
  prepareOauth: {
    path: 'prepare-oauth',
    request: z.object({
      nonce: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the frame public key')),
    }),
    answer: z.object({
      codeChallenge: z.string(),
      requestKey: z.string(),
      authProviders: z.array(publicOauthProviderSchema),
      oauthCallbackUrl: z.string(),
    }),
  },
  passkeyChallenge: {
    path: 'passkey-challenge',
    request: optionalEmptyBodySchema,
    answer: z.object({
      challenge: z.string(),
      expiresAtMs: z.number(),
      rp: z.object({ id: z.string(), name: z.string() }),
      timeout: z.number(),
      algorithms: z.array(z.number()),
      defaultTransports: z.array(z.string()),
    }),
  },
  authPasskey: { path: 'auth-passkey', answer: credentialAnswerSchema },
  validateMultiFactors: {
    path: 'auth-validate-multi-factors',
    request: z.object({
      encryptedPayload: z.string().check(z.minLength(1), z.maxLength(4096)),
      multiFactors: z
        .array(z.object({ multiFactorId: multiFactorIdSchema, multiFactorCode: codeSchema }))
        .check(z.minLength(1), z.maxLength(5)),
      targetPublicKey: z.optional(targetPublicKeySchema),
    }),
    answer: z.object({
      payload: z.object({ credentialBundle: z.string() }),
      orgId: z.string(),
      isNewUser: z.boolean(),
    }),
  },
} as const

/** The name of one unstamped call. */
export type SignerRouteName = keyof typeof signerRoutes

/** The request body (as the caller sends it) of one unstamped call. */
export type SignerRouteRequest<Name extends Exclude<SignerRouteName, 'authPasskey'>> = z.input<
  (typeof signerRoutes)[Name]['request']
>

/** The 200 answer (as parsed) of one unstamped call. */
export type SignerRouteAnswer<Name extends SignerRouteName> = z.output<(typeof signerRoutes)[Name]['answer']>

/**
 * The fields of the stock-Turnkey query routes (`/public/v1/query/…`, docs/signer.md#turnkey-compatibility)
 * beside `organizationId` and `timestampMs`; unknown fields are dropped.
 */
export const turnkeyQuerySchemas = {
  whoami: z.object({}),
  listWallets: z.object({}),
  listWalletAccounts: z.object({
    walletId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    includeWalletDetails: z.optional(z.boolean()),
  }),
  getActivity: z.object({ activityId: z.string().check(z.minLength(1), z.maxLength(64)) }),
} as const

/** The largest body the stock-Turnkey routes take, as the `/signer/v1` stamped routes. */
export const turnkeyRawBodyMaxLength = 256 * 1024

/** A stock-Turnkey route's body, the raw string: a stamp signs these exact bytes, so it is parsed only after it verifies. */
export const turnkeyRawBodySchema = z.string().check(z.minLength(1), z.maxLength(turnkeyRawBodyMaxLength))
