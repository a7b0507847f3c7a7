import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { toPublicUser } from '../../services/users/to-public-user.ts'
import { errorResponseSchema } from '../error-response-schema.ts'
import { userSchema } from './user-schema.ts'

/** Session routes under /api/auth; sign-in itself arrives with issue 3. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/me',
    {
      schema: {
        summary: 'The signed-in user; 401 when signed out',
        tags: ['auth'],
        response: { 200: z.object({ data: userSchema }), 401: errorResponseSchema },
      },
    },
    // GET /api/auth/me: the session's user, or 401 UNAUTHORIZED.
    async (request) => {
      if (request.user === null) throw new AppError('UNAUTHORIZED', { message: 'No live session' })
      return { data: toPublicUser(request.user) }
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
