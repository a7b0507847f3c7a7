import type {} from '@fastify/rate-limit'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import { emailSchema, phoneSchema } from '@quicklinks/protocol/signer-field-schemas'
import { signerRoutes } from '@quicklinks/protocol/signer-routes'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getAddress } from 'viem'
import type { z } from 'zod/mini'
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
import type { Contact } from '../services/contacts/contact-schemas.ts'
import type { SignerContext } from '../signer-context.ts'
import { readCodeRequestOrigin, setSignInMarkerCookie } from './sign-in-marker-cookie.ts'
import { perIpPerMinute, type SignerRateLimits } from './signer-rate-limits.ts'

function toContact(value: { email?: string | undefined; phone?: string | undefined }): Contact {
  return value.email !== undefined
    ? { channel: 'email', address: value.email }
    : { channel: 'sms', address: value.phone ?? '' }
}

export type SignerRouteOptions = { context: SignerContext; limits: SignerRateLimits }

/** The unauthenticated signer routes: lookup, sign-in by code, magic link or JWT, contact verification. */
export const authRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context, limits }) => {
  app.post(
    '/lookup',
    {
      config: perIpPerMinute(limits.lookupsPerIpPerMinute),
      schema: {
        summary: 'The orgId of an e-mail or phone; a stable pseudonymous one when it has no account',
        tags: ['signer'],
        body: signerRoutes.lookup.request,
        response: { 200: signerRoutes.lookup.answer },
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

  const toStartInput = (body: z.output<typeof signerRoutes.auth.request>, request: FastifyRequest) => ({
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
        body: signerRoutes.signup.request,
        response: { 200: signerRoutes.signup.answer },
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
        // Checksummed and typed as the answer's 0x hex (a reserved address always is one).
        address: getAddress(started.reservation.evmAddress),
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
        body: signerRoutes.auth.request,
        response: { 200: signerRoutes.auth.answer },
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
        body: signerRoutes.otp.request,
        response: { 200: signerRoutes.otp.answer },
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
        body: signerRoutes.magicLink.request,
        response: { 200: signerRoutes.magicLink.answer },
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
        body: signerRoutes.authJwt.request,
        response: { 200: signerRoutes.authJwt.answer },
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
        body: signerRoutes.initOtp.request,
        response: { 200: signerRoutes.initOtp.answer },
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
        body: signerRoutes.verifyOtp.request,
        response: { 200: signerRoutes.verifyOtp.answer },
      },
    },
    // POST /signer/v1/verify-otp: check a verification code and answer a verification token.
    async (request) => verifyContactCode(context, request.body),
  )
}
