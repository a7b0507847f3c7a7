import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { createSiweNonce } from '../../services/siwe/create-siwe-nonce.ts'
import { signInWithSiwe } from '../../services/siwe/sign-in-with-siwe.ts'
import { toPublicUser } from '../../services/users/to-public-user.ts'
import { errorResponseSchema } from '../error-response-schema.ts'
import { userSchema } from './user-schema.ts'

export const loginRequestSchema = z
  .object({
    message: z.string().min(1).max(4096).describe('The EIP-4361 message the wallet signed'),
    signature: z
      .string()
      .max(8192)
      .regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex')
      .describe('The EIP-191 signature of the message'),
  })
  .meta({ id: 'LoginRequest' })

export type LoginRequest = z.infer<typeof loginRequestSchema>

// Per client IP, on top of the global limit: enough for retries, too few to spam the nonce table.
const nonceRateLimit = { max: 60, timeWindow: '1 minute' }
const loginRateLimit = { max: 30, timeWindow: '1 minute' }

/**
 * The public session routes under /api/auth: SIWE sign-in (nonce, login) and logout. The current
 * user (GET /api/auth/me) sits in the signed-in scope (current-user-routes.ts).
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/nonce',
    {
      config: { rateLimit: nonceRateLimit },
      schema: {
        summary: 'A single-use Sign-In with Ethereum nonce, valid for 10 minutes',
        tags: ['auth'],
        response: {
          200: z.object({ data: z.object({ nonce: z.string() }) }),
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
          200: z.object({ data: userSchema }),
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
        { publicOrigin: app.config.publicOrigin, caches: app.readCaches },
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
        response: { 200: z.object({ data: z.object({ ok: z.literal(true) }) }), 403: errorResponseSchema },
      },
    },
    // POST /api/auth/logout: revoke the session and clear the cookie; fine when signed out.
    async (_request, reply) => {
      await reply.endSession()
      return { data: { ok: true as const } }
    },
  )
}
