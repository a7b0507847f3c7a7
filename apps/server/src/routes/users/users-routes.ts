import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { claimUsername } from '../../services/users/claim-username.ts'
import { isUsernameTaken } from '../../services/users/is-username-taken.ts'
import { requireSignedInUser } from '../../services/users/require-signed-in-user.ts'
import { toPublicUser } from '../../services/users/to-public-user.ts'
import { claimUsernameRequestSchema, usernameSchema } from '../../services/users/username-schema.ts'
import { userSchema } from '../auth/user-schema.ts'
import { errorResponseSchema } from '../error-response-schema.ts'

// Per client IP: the claim screen looks up at most once per 350 ms of typing.
const existsRateLimit = { max: 60, timeWindow: '1 minute' }
const claimRateLimit = { max: 30, timeWindow: '1 minute' }

/** Usernames under /api/users: the public availability check and the signed-in user's claim. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/username/:username/exists',
    {
      config: { rateLimit: existsRateLimit },
      schema: {
        summary: 'Whether a username is held, ignoring case (public, rate-limited per IP)',
        tags: ['users'],
        params: z.object({ username: usernameSchema }),
        response: {
          200: z.object({ exists: z.boolean() }),
          422: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    // GET /api/users/username/{username}/exists: { exists } for the claim screen.
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return { exists: await isUsernameTaken(app.db, request.params.username) }
    },
  )

  app.post(
    '/users/username',
    {
      config: { rateLimit: claimRateLimit },
      schema: {
        summary: 'Claims (or changes) the signed-in user’s username; 409 when another user holds it',
        tags: ['users'],
        body: claimUsernameRequestSchema,
        response: {
          200: z.object({ data: userSchema }),
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    // POST /api/users/username: give the caller this username, or 409 'That username is taken.'
    async (request) => {
      const user = requireSignedInUser(request.user)
      const updated = await claimUsername(
        app.db,
        { userId: user.id, username: request.body.username },
        app.readCaches,
      )
      return { data: toPublicUser(updated) }
    },
  )
}
