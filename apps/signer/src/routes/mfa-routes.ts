import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { signerRoutes } from '@quicklinks/protocol/signer-routes'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getAccountOrThrow } from '../services/accounts/get-account-or-throw.ts'
import { confirmTotpFactorAndTell, deleteTotpFactorsAndTell } from '../services/mfa/announced-totp-changes.ts'
import { createTotpFactor, listTotpFactors } from '../services/mfa/totp-factors.ts'
import { validateMultiFactors } from '../services/mfa/validate-multi-factors.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'
import { setSignInMarkerCookie } from './sign-in-marker-cookie.ts'
import { perIpPerMinute } from './signer-rate-limits.ts'

/**
 * Second factors (TOTP, docs/signer.md#multi-factor): the signed-in user lists, enrols, confirms
 * and removes authenticator apps with stamped calls; `auth-validate-multi-factors` completes a
 * sign-in that `otp` or `magic-link` answered with MFA_REQUIRED.
 */
export const mfaRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context, limits }) => {
  const stamped = {
    list: createStampedRoute(context, signerActivities.listMultiFactors),
    request: createStampedRoute(context, signerActivities.requestMultiFactor),
    verify: createStampedRoute(context, signerActivities.verifyMultiFactor),
    delete: createStampedRoute(context, signerActivities.deleteMultiFactors),
  }

  app.post(
    '/auth-list-multi-factors',
    {
      schema: {
        summary: "The user's confirmed second factors",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.listMultiFactors.answer },
      },
      preHandler: stamped.list.verifyStamp,
    },
    // POST /signer/v1/auth-list-multi-factors: the confirmed TOTP factors, never their secrets.
    async (request) => {
      const verified = stamped.list.getVerified(request)
      return { multiFactors: await listTotpFactors(context.db, verified.userId) }
    },
  )

  app.post(
    '/auth-request-multi-factor',
    {
      schema: {
        summary:
          'Starts a TOTP enrolment: a new secret, as text and otpauth URI, confirmed later by a first code',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.requestMultiFactor.answer },
      },
      preHandler: stamped.request.verifyStamp,
    },
    // POST /signer/v1/auth-request-multi-factor: a fresh sealed TOTP secret, shown once.
    async (request) => {
      const verified = stamped.request.getVerified(request)
      const account = await getAccountOrThrow(context.db, verified.userId)
      return createTotpFactor(context, {
        userId: verified.userId,
        multiFactorType: verified.parameters.multiFactorType,
        label: account.email ?? account.phone ?? account.organizationId,
      })
    },
  )

  app.post(
    '/auth-verify-multi-factor',
    {
      schema: {
        summary: 'Confirms a TOTP factor with a code from the app; from then on sign-ins need its code',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.verifyMultiFactor.answer },
      },
      preHandler: stamped.verify.verifyStamp,
    },
    // POST /signer/v1/auth-verify-multi-factor: the first right code completes the enrolment; the owner is told.
    async (request) => {
      const verified = stamped.verify.getVerified(request)
      const multiFactors = await confirmTotpFactorAndTell(context, {
        userId: verified.userId,
        multiFactorId: verified.parameters.multiFactorId,
        code: verified.parameters.multiFactorCode,
      })
      return { multiFactors }
    },
  )

  app.post(
    '/auth-delete-multi-factors',
    {
      schema: {
        summary: "Removes the user's second factors named by multiFactorIds",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.deleteMultiFactors.answer },
      },
      preHandler: stamped.delete.verifyStamp,
    },
    // POST /signer/v1/auth-delete-multi-factors: drop factors (the owner is told); answers those left.
    async (request) => {
      const verified = stamped.delete.getVerified(request)
      const multiFactors = await deleteTotpFactorsAndTell(context, {
        userId: verified.userId,
        multiFactorIds: verified.parameters.multiFactorIds,
      })
      return { multiFactors }
    },
  )

  app.post(
    '/auth-validate-multi-factors',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          'Completes a sign-in that answered MFA_REQUIRED: the sealed payload and a factor code; returns payload.credentialBundle',
        tags: ['signer'],
        body: signerRoutes.validateMultiFactors.request,
        response: { 200: signerRoutes.validateMultiFactors.answer },
      },
    },
    // POST /signer/v1/auth-validate-multi-factors: check the code, spend the payload, mint the session.
    async (request, reply) => {
      const answer = await validateMultiFactors(context, {
        encryptedPayload: request.body.encryptedPayload,
        multiFactors: request.body.multiFactors,
        ...(request.body.targetPublicKey === undefined
          ? {}
          : { targetPublicKey: request.body.targetPublicKey }),
      })
      // The sign-in is complete: this browser gets its recent-sign-in marker (docs/decisions/0022).
      await setSignInMarkerCookie(context, request, reply, answer)
      return answer
    },
  )
}
