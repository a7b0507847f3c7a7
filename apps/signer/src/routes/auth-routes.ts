import type {} from '@fastify/rate-limit'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import { redirectParamsSchema } from '@quicklinks/protocol/redirect-params-schema'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { deriveOrganizationId } from '../services/accounts/derive-organization-id.ts'
import { findAccountByContact } from '../services/accounts/find-account.ts'
import { completeJwtAuth } from '../services/auth/complete-jwt-auth.ts'
import { completeOtpAuth } from '../services/auth/complete-otp-auth.ts'
import { completePasskeySignup } from '../services/auth/complete-passkey-signup.ts'
import { createJwtVerifier } from '../services/auth/create-jwt-verifier.ts'
import { openMagicLink } from '../services/auth/open-magic-link.ts'
import { sendVerificationCode } from '../services/auth/send-verification-code.ts'
import { startContactAuth } from '../services/auth/start-contact-auth.ts'
import { verifyContactCode } from '../services/auth/verify-contact-code.ts'
import { type Contact, emailSchema, phoneSchema } from '../services/contacts/contact-schemas.ts'
import { passkeyNameSchema, passkeyRegistrationSchema } from '../services/passkeys/passkey-schemas.ts'
import { targetPublicKeySchema } from '../services/validation/target-public-key-schema.ts'
import type { SignerContext } from '../signer-context.ts'
import { readCodeRequestOrigin, setSignInMarkerCookie } from './sign-in-marker-cookie.ts'
import { perIpPerMinute, type SignerRateLimits } from './signer-rate-limits.ts'

/** Session-key lifetime a client may ask for: 1 minute to 1 day (a string of digits is accepted too). */
const expirationSecondsSchema = z
  .union([z.number(), z.string().regex(/^\d{1,9}$/)])
  .transform(Number)
  .pipe(z.number().int().min(60, 'must be at least 60').max(86_400, 'must be at most 86400'))

const otpCodeSchema = z
  .string()
  .max(32)
  .transform((value) => value.replace(/\s/g, ''))

/** Exactly one of `email` and `phone`. */
function requireOneContact(
  value: { email?: string | undefined; phone?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if ((value.email === undefined) === (value.phone === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: 'give either an email or a phone' })
  }
}

function toContact(value: { email?: string | undefined; phone?: string | undefined }): Contact {
  return value.email !== undefined
    ? { channel: 'email', address: value.email }
    : { channel: 'sms', address: value.phone ?? '' }
}

const lookupBodySchema = z
  .object({ email: emailSchema.optional(), phone: phoneSchema.optional() })
  .superRefine(requireOneContact)

const authBodySchema = z
  .object({
    email: emailSchema.optional(),
    phone: phoneSchema.optional(),
    emailMode: z.enum(['otp', 'magicLink']).optional(),
    targetPublicKey: targetPublicKeySchema.optional(),
    expirationSeconds: expirationSecondsSchema.optional(),
    redirectParams: redirectParamsSchema.optional(),
    multiFactors: z.unknown().optional(),
  })
  .superRefine(requireOneContact)

const otpBodySchema = z.object({
  orgId: z.string().min(1).max(64),
  otpId: z.uuid({ error: 'must be the otpId that auth returned' }),
  otpCode: otpCodeSchema,
  targetPublicKey: targetPublicKeySchema,
  expirationSeconds: expirationSecondsSchema.optional(),
  multiFactors: z.unknown().optional(),
})

const magicLinkBodySchema = z.object({
  orgId: z.string().min(1).max(64),
  token: z.string().max(128, 'must be the bundle parameter of the magic link'),
  targetPublicKey: targetPublicKeySchema,
  expirationSeconds: expirationSecondsSchema.optional(),
})

const jwtAuthBodySchema = z.object({
  jwt: z.string().max(16_384, 'must be a JWT of at most 16 KiB'),
  authProvider: z.string().min(1).max(64).optional(),
  targetPublicKey: targetPublicKeySchema,
  expirationSeconds: expirationSecondsSchema.optional(),
})

const initOtpBodySchema = z.object({
  otpType: z.enum(['OTP_TYPE_EMAIL', 'OTP_TYPE_SMS']),
  contact: z.string().max(320),
})

const verifyOtpBodySchema = z.object({
  otpId: z.uuid({ error: 'must be the otpId that init-otp returned' }),
  otpCode: otpCodeSchema,
})

export type SignerRouteOptions = { context: SignerContext; limits: SignerRateLimits }

/**
 * What `signup` answers: the code's orgId and otpId, and the user id and addresses of the wallet
 * reserved for the code. The same shape for every contact; the reservation becomes the account
 * only if the contact has none when the code is used (docs/decisions/0019).
 */
const signupResponseSchema = z.object({
  orgId: z.string(),
  otpId: z.string(),
  address: z.string(),
  userId: z.string(),
  solanaAddress: z.string(),
  // Passkey sign-up only (docs/signer.md#passkey-signup): the first session, and isNewUser true.
  credentialBundle: z.string().optional(),
  isNewUser: z.boolean().optional(),
})

/** `signup` with a passkey: `passkey {challenge, attestation}`, optional e-mail (the passkey's user name). */
const passkeySignupBodySchema = z.object({
  passkey: passkeyRegistrationSchema,
  email: emailSchema.optional(),
  authenticatorName: passkeyNameSchema.optional(),
  targetPublicKey: targetPublicKeySchema.optional(),
  expirationSeconds: expirationSecondsSchema.optional(),
})

const credentialResponseSchema = z.object({
  credentialBundle: z.string(),
  isNewUser: z.boolean(),
  orgId: z.string(),
})

/** A code, link or JWT sign-in's answer: a credential bundle, or MFA_REQUIRED (docs/signer.md#mfa-required). */
const contactSignInResponseSchema = z.union([
  credentialResponseSchema,
  z.object({
    status: z.literal('MFA_REQUIRED'),
    encryptedPayload: z.string(),
    multiFactors: z.array(z.object({ multiFactorId: z.string(), multiFactorType: z.literal('totp') })),
    orgId: z.string(),
  }),
])

/** The unauthenticated signer routes: lookup, sign-in by code, magic link or JWT, contact verification. */
export const authRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context, limits }) => {
  app.post(
    '/lookup',
    {
      config: perIpPerMinute(limits.lookupsPerIpPerMinute),
      schema: {
        summary: 'The orgId of an e-mail or phone; a stable pseudonymous one when it has no account',
        tags: ['signer'],
        body: lookupBodySchema,
        response: { 200: z.object({ orgId: z.string() }) },
      },
    },
    // POST /signer/v1/lookup: orgId of a contact, identical in shape whether or not it has an account.
    async (request) => {
      const contact = toContact(request.body)
      const account = await findAccountByContact(context.db, contact)
      return {
        orgId: account?.organizationId ?? deriveOrganizationId(context.keyring.organizationIdSecret, contact),
      }
    },
  )

  const startAuthResponseSchema = z.object({ orgId: z.string(), otpId: z.string() })
  const toStartInput = (body: z.output<typeof authBodySchema>, request: FastifyRequest) => ({
    contact: toContact(body),
    origin: readCodeRequestOrigin(request),
    emailMode: body.email !== undefined ? (body.emailMode ?? 'otp') : 'otp',
    ...(body.targetPublicKey === undefined ? {} : { targetPublicKey: body.targetPublicKey }),
    ...(body.expirationSeconds === undefined ? {} : { expirationSeconds: body.expirationSeconds }),
    ...(body.redirectParams === undefined ? {} : { redirectParams: body.redirectParams }),
  })

  app.post(
    '/signup',
    {
      config: perIpPerMinute(limits.sendsPerIpPerMinute),
      schema: {
        summary:
          'Account creation: sends a sign-in code and answers the ids and addresses of the wallet reserved for it',
        tags: ['signer'],
        body: z.union([passkeySignupBodySchema, authBodySchema]),
        response: { 200: signupResponseSchema },
      },
    },
    // POST /signer/v1/signup: send a code and reserve a wallet for it, alike for every contact (docs/decisions/0019).
    async (request, reply) => {
      if ('passkey' in request.body) {
        // Or create the account of a new passkey at once (docs/signer.md#passkey-signup).
        const { passkey, authenticatorName, targetPublicKey, expirationSeconds } = request.body
        const answer = await completePasskeySignup(context, {
          passkey,
          authenticatorName,
          targetPublicKey,
          expirationSeconds,
        })
        if (answer.credentialBundle !== undefined)
          await setSignInMarkerCookie(context, request, reply, answer)
        return answer
      }
      const started = await startContactAuth(context, {
        ...toStartInput(request.body, request),
        reservesWallet: true,
      })
      return {
        orgId: started.orgId,
        otpId: started.otpId,
        address: started.reservation.evmAddress,
        userId: started.reservation.userId,
        solanaAddress: started.reservation.solanaAddress,
      }
    },
  )

  app.post(
    '/auth',
    {
      config: perIpPerMinute(limits.sendsPerIpPerMinute),
      schema: {
        summary: 'Sends a sign-in code (and, with emailMode magicLink, a link) by e-mail or SMS',
        tags: ['signer'],
        body: authBodySchema,
        response: { 200: startAuthResponseSchema },
      },
    },
    // POST /signer/v1/auth: send a sign-in code (or magic link) to an e-mail or phone.
    async (request) => {
      const { orgId, otpId } = await startContactAuth(context, toStartInput(request.body, request))
      return { orgId, otpId }
    },
  )

  app.post(
    '/otp',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary: 'Signs in with the code; returns a session key encrypted to targetPublicKey',
        tags: ['signer'],
        body: otpBodySchema,
        response: { 200: contactSignInResponseSchema },
      },
    },
    // POST /signer/v1/otp: spend the code, create the account at first sign-in, return a credential bundle.
    async (request, reply) => {
      const answer = await completeOtpAuth(context, {
        orgId: request.body.orgId,
        otpId: request.body.otpId,
        otpCode: request.body.otpCode,
        targetPublicKey: request.body.targetPublicKey,
        ...(request.body.expirationSeconds === undefined
          ? {}
          : { expirationSeconds: request.body.expirationSeconds }),
      })
      await setSignInMarkerCookie(context, request, reply, answer)
      return answer
    },
  )

  app.post(
    '/magic-link',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          'Opens a magic link: spends its token and only then mints the session key, encrypted to the key the link was asked for',
        tags: ['signer'],
        body: magicLinkBodySchema,
        response: { 200: contactSignInResponseSchema },
      },
    },
    // POST /signer/v1/magic-link: spend the link's token, create the account at first sign-in, return a credential bundle.
    async (request, reply) => {
      const answer = await openMagicLink(context, {
        orgId: request.body.orgId,
        token: request.body.token,
        targetPublicKey: request.body.targetPublicKey,
        ...(request.body.expirationSeconds === undefined
          ? {}
          : { expirationSeconds: request.body.expirationSeconds }),
      })
      await setSignInMarkerCookie(context, request, reply, answer)
      return answer
    },
  )

  const verifyJwt = createJwtVerifier(context.config.jwtProviders ?? [], context.now)
  app.post(
    '/auth-jwt',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          'Signs in with a JWT from a configured issuer (JWT_PROVIDERS); returns a session key encrypted to targetPublicKey',
        tags: ['signer'],
        body: jwtAuthBodySchema,
        response: { 200: contactSignInResponseSchema },
      },
    },
    // POST /signer/v1/auth-jwt: verify the token, create the account at first sign-in, return a credential bundle (or MFA_REQUIRED).
    async (request, reply) => {
      const answer = await completeJwtAuth(context, verifyJwt, {
        jwt: request.body.jwt,
        targetPublicKey: request.body.targetPublicKey,
        ...(request.body.authProvider === undefined ? {} : { authProvider: request.body.authProvider }),
        ...(request.body.expirationSeconds === undefined
          ? {}
          : { expirationSeconds: request.body.expirationSeconds }),
      })
      await setSignInMarkerCookie(context, request, reply, answer)
      return answer
    },
  )

  app.post(
    '/init-otp',
    {
      config: perIpPerMinute(limits.sendsPerIpPerMinute),
      schema: {
        summary: 'Sends a code proving control of an e-mail or phone',
        tags: ['signer'],
        body: initOtpBodySchema,
        response: { 200: z.object({ otpId: z.string() }) },
      },
    },
    // POST /signer/v1/init-otp: send a verification code to a contact.
    async (request) => {
      const { otpType, contact } = request.body
      const address =
        otpType === 'OTP_TYPE_EMAIL'
          ? parseInputOrThrow(emailSchema, contact, 'contact')
          : parseInputOrThrow(phoneSchema, contact, 'contact')
      return sendVerificationCode(
        context,
        { channel: otpType === 'OTP_TYPE_EMAIL' ? 'email' : 'sms', address },
        readCodeRequestOrigin(request),
      )
    },
  )

  app.post(
    '/verify-otp',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary: 'Spends a verification code; returns a short-lived verification token',
        tags: ['signer'],
        body: verifyOtpBodySchema,
        response: { 200: z.object({ verificationToken: z.string() }) },
      },
    },
    // POST /signer/v1/verify-otp: check a verification code and answer a verification token.
    async (request) => verifyContactCode(context, request.body),
  )
}
