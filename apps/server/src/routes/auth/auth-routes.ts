import {
  loginRequestSchema,
  logoutResponseSchema,
  nonceResponseSchema,
  userResponseSchema,
} from '@quicklinks/core/api/auth'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createSiweNonce } from '../../services/siwe/create-siwe-nonce.ts'
import { createSiweSignatureVerifier } from '../../services/siwe/create-siwe-signature-verifier.ts'
import { signInWithSiwe } from '../../services/siwe/sign-in-with-siwe.ts'
import { toPublicUser } from '../../services/users/to-public-user.ts'

// Per client IP, on top of the global limit: enough for retries, too few to spam the nonce table.
const nonceRateLimit = { max: 60, timeWindow: '1 minute' }
const loginRateLimit = { max: 30, timeWindow: '1 minute' }

/**
 * The public session routes under /api/auth: SIWE sign-in (nonce, login) and logout. The current
 * user (GET /api/auth/me) sits in the signed-in scope (current-user-routes.ts).
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // EOAs offline; smart accounts (ERC-1271, ERC-6492) on the message's chain.
  const verifySignature = createSiweSignatureVerifier(app.config)
  app.get(
    '/auth/nonce',
    {
      config: { rateLimit: nonceRateLimit },
      schema: {
        summary: 'A single-use Sign-In with Ethereum nonce, valid for 10 minutes',
        tags: ['auth'],
        response: {
          200: nonceResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    // GET /api/auth/nonce: a fresh nonce for the next SIWE message.
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { data: { nonce: await createSiweNonce(app.db) } }
    },
  )

  app.post(
    '/auth/login',
    {
      config: { rateLimit: loginRateLimit },
      schema: {
        summary: 'Signs in with a SIWE (EIP-4361) message signed by the wallet; sets a new session cookie',
        tags: ['auth'],
        body: loginRequestSchema,
        response: {
          200: userResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          422: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    // POST /api/auth/login: verify the signed SIWE message, then start a new session for its address.
    async (request, reply) => {
      const user = await signInWithSiwe(
        app.db,
        { message: request.body.message, signature: request.body.signature as `0x${string}` },
        { publicOrigin: app.config.publicOrigin, caches: app.readCaches, verifySignature },
      )
      await reply.startSession(user.id)
      return { data: toPublicUser(user) }
    },
  )

  app.post(
    '/auth/logout',
    {
      schema: {
        summary: 'Ends the session (if any) and clears its cookie',
        tags: ['auth'],
        response: { 200: logoutResponseSchema, 403: errorResponseSchema },
      },
    },
    // POST /api/auth/logout: revoke the session and clear the cookie; fine when signed out.
    async (_request, reply) => {
      await reply.endSession()
      return { data: { ok: true as const } }
    },
  )
}
