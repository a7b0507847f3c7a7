import { userResponseSchema } from '@quicklinks/core/api/auth'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { toPublicUser } from '../../services/users/to-public-user.ts'

/** GET /api/auth/me; registered in the signed-in scope, whose preHandler answers 401 when signed out. */
export const currentUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/me',
    {
      schema: {
        summary: 'The signed-in user; 401 when signed out',
        tags: ['auth'],
        response: { 200: userResponseSchema, 401: errorResponseSchema },
      },
    },
    // GET /api/auth/me: the session's user.
    async (request) => ({ data: toPublicUser(request.signedInUser) }),
  )
}
