import { signerActivities } from '@quicklinks/protocol/signer-activities'
import { signerRoutes } from '@quicklinks/protocol/signer-routes'
import { stampedRequestBodySchema } from '@quicklinks/protocol/stamped-request-body-schema'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { removeSignInMethod } from '../services/accounts/remove-sign-in-method.ts'
import { completePasskeyAuth } from '../services/auth/complete-passkey-auth.ts'
import { issuePasskeyChallenge } from '../services/passkeys/passkey-challenge.ts'
import {
  defaultPasskeyTransports,
  getPasskeyRelyingParty,
  passkeyAlgorithms,
  passkeyTimeoutMs,
} from '../services/passkeys/passkey-relying-party.ts'
import { addPasskeyToUser } from '../services/passkeys/register-passkey.ts'
import { verifyPasskeyRegistration } from '../services/passkeys/verify-passkey-registration.ts'
import { createDatabaseReplayStore } from '../services/stamps/create-database-replay-store.ts'
import type { SignerRouteOptions } from './auth-routes.ts'
import { createStampedRoute } from './create-stamped-route.ts'
import { setSignInMarkerCookie } from './sign-in-marker-cookie.ts'
import { perIpPerMinute } from './signer-rate-limits.ts'

/**
 * Passkeys (docs/signer.md#passkeys): a registration challenge, sign-in by passkey, and adding and
 * removing the signed-in user's passkeys. Sign-up with a passkey is `signup` (auth-routes.ts).
 */
export const passkeyRoutes: FastifyPluginAsyncZod<SignerRouteOptions> = async (app, { context, limits }) => {
  const stamped = {
    addPasskey: createStampedRoute(context, signerActivities.addPasskey),
    removePasskey: createStampedRoute(context, signerActivities.removePasskey),
  }

  app.post(
    '/passkey-challenge',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          'A single-use challenge for creating a passkey (signup or add-authenticator), with the relying party and options',
        tags: ['signer'],
        body: signerRoutes.passkeyChallenge.request,
        response: { 200: signerRoutes.passkeyChallenge.answer },
      },
    },
    // POST /signer/v1/passkey-challenge: a MACed, expiring challenge; the passkey registered with it spends it.
    async () => {
      const { challenge, expiresAtMs } = issuePasskeyChallenge(context)
      const relyingParty = getPasskeyRelyingParty(context.config)
      return {
        challenge,
        expiresAtMs,
        rp: { id: relyingParty.rpId, name: relyingParty.rpName },
        timeout: passkeyTimeoutMs,
        algorithms: [...passkeyAlgorithms],
        defaultTransports: [...defaultPasskeyTransports],
      }
    },
  )

  app.post(
    '/auth-passkey',
    {
      config: perIpPerMinute(limits.codeChecksPerIpPerMinute),
      schema: {
        summary:
          'Signs in with a passkey: a stamp-login body stamped with X-Stamp-WebAuthn; returns a session key encrypted to its publicKey',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerRoutes.authPasskey.answer },
      },
    },
    // POST /signer/v1/auth-passkey: the passkey's user, found by the assertion's credential; a credential bundle.
    async (request, reply) => {
      const answer = await completePasskeyAuth(context, request.body.stampedRequest)
      // This browser gets its recent-sign-in marker (docs/decisions/0022).
      await setSignInMarkerCookie(context, request, reply, answer)
      return answer
    },
  )

  app.post(
    '/add-authenticator',
    {
      schema: {
        summary: 'Adds a passkey (made with a passkey-challenge) to the signed-in user',
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.addPasskey.answer },
      },
      preHandler: stamped.addPasskey.verifyStamp,
    },
    // POST /signer/v1/add-authenticator: verify the attestation and store the passkey as a sign-in method.
    async (request) => {
      const verified = stamped.addPasskey.getVerified(request)
      const { authenticatorName, ...registration } = verified.parameters
      const passkey = await verifyPasskeyRegistration(
        context,
        { ...registration, name: authenticatorName },
        createDatabaseReplayStore(context.db, context.now),
      )
      await addPasskeyToUser(context, { userId: verified.userId, passkey })
      return {
        authenticatorId: passkey.credentialId,
        name: passkey.data.name,
        createdAt: passkey.data.createdAt,
      }
    },
  )

  app.post(
    '/remove-authenticator',
    {
      schema: {
        summary: "Removes one of the user's passkeys; refused for the last way to sign in",
        tags: ['signer'],
        body: stampedRequestBodySchema,
        response: { 200: signerActivities.removePasskey.answer },
      },
      preHandler: stamped.removePasskey.verifyStamp,
    },
    // POST /signer/v1/remove-authenticator: through removeSignInMethod, so the last method stays.
    async (request) => {
      const verified = stamped.removePasskey.getVerified(request)
      await removeSignInMethod(context.db, {
        userId: verified.userId,
        type: 'passkey',
        identifier: verified.parameters.authenticatorId,
      })
      return { removed: true }
    },
  )
}
