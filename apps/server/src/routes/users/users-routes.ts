import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { usernameExistsParamsSchema, usernameExistsResponseSchema } from '@quicklinks/core/api/users'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { isUsernameTaken } from '../../services/users/is-username-taken.ts'

// Per client IP: the claim screen looks up at most once per 350 ms of typing.
const existsRateLimit = { max: 60, timeWindow: '1 minute' }

/**
 * The public username route under /api/users: the availability check. The claim sits in the
 * signed-in scope (username-claim-routes.ts).
 */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/username/:username/exists',
    {
      config: { rateLimit: existsRateLimit },
      schema: {
        summary: 'Whether a username is held, ignoring case (public, rate-limited per IP)',
        tags: ['users'],
        params: usernameExistsParamsSchema,
        response: {
          200: usernameExistsResponseSchema,
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
}
