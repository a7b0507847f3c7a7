import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { noticeSettingsResponseSchema, updateNoticeSettingsRequestSchema } from '@quicklinks/core/api/notices'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getNoticeSettings, setPaymentDigest } from '../../services/users/notice-settings.ts'

/**
 * GET and PUT /api/users/notices (docs/api.md#notices): the signed-in user's own notice settings,
 * nobody else's (the path names no user). Signed-in scope; no `apiKeyScopes`, so only a browser
 * session (with its CSRF token for the PUT) reads or changes them, never an API key (403).
 */
export const noticeSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/notices',
    {
      schema: {
        summary: "The signed-in user's e-mail notice settings (the daily payment digest)",
        tags: ['users'],
        response: { 200: noticeSettingsResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => ({ data: await getNoticeSettings(app.db, request.signedInUser.id) }),
  )

  app.put(
    '/users/notices',
    {
      schema: {
        summary: "Sets the signed-in user's e-mail notice settings",
        tags: ['users'],
        body: updateNoticeSettingsRequestSchema,
        response: {
          200: noticeSettingsResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const settings = await setPaymentDigest(
        app.db,
        { userId: request.signedInUser.id, paymentDigest: request.body.paymentDigest },
        app.readCaches,
      )
      request.log.info({ paymentDigest: settings.paymentDigest }, 'Payment digest set')
      return { data: settings }
    },
  )
}
