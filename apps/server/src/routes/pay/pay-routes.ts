import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { getPublicLinkOrThrow } from '../../services/links/get-public-link-or-throw.ts'
import { publicLinkSchema } from '../../services/links/link-schemas.ts'
import { toPublicLinkResponse } from '../../services/links/to-link-response.ts'
import { errorResponseSchema } from '../error-response-schema.ts'

/** The payer's side under /api/pay: the public read of an enabled link. */
export const payRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/pay/links/:slug',
    {
      schema: {
        summary: 'An enabled link by its slug (public, ignoring case); 404 when unknown or disabled',
        tags: ['pay'],
        params: z.object({ slug: z.string().max(256) }),
        response: { 200: z.object({ data: publicLinkSchema }), 404: errorResponseSchema },
      },
    },
    // GET /api/pay/links/{slug}: the payer's view of an enabled link, or 404 'This link is unavailable.'
    async (request) => {
      const link = await getPublicLinkOrThrow(app.db, request.params.slug)
      return { data: toPublicLinkResponse(link) }
    },
  )
}
