import { userResponseSchema } from '@quicklinks/core/api/auth'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { claimUsernameRequestSchema } from '@quicklinks/core/api/users'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { claimUsername } from '../../services/users/claim-username.ts'
import { toPublicUser } from '../../services/users/to-public-user.ts'

// Per client IP, on top of the global limit.
const claimRateLimit = { max: 30, timeWindow: '1 minute' }

/** POST /api/users/username; registered in the signed-in scope, whose preHandler answers 401 when signed out. */
export const usernameClaimRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/users/username',
    {
      config: { rateLimit: claimRateLimit },
      schema: {
        summary: 'Claims (or changes) the signed-in user’s username; 409 when another user holds it',
        tags: ['users'],
        body: claimUsernameRequestSchema,
        response: {
          200: userResponseSchema,
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
      const updated = await claimUsername(
        app.db,
        { userId: request.signedInUser.id, username: request.body.username },
        app.readCaches,
      )
      return { data: toPublicUser(updated) }
    },
  )
}
