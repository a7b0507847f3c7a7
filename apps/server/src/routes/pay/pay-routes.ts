import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  type PublicLinkResponse,
  publicLinkParamsSchema,
  publicLinkResponseSchema,
  publicLinkSchema,
} from '@quicklinks/core/api/pay'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Link } from '../../db/schema.ts'
import { type CachedJsonAnswer, sendCachedJson } from '../../services/http/encode-once.ts'
import { getPublicLinkOrThrow } from '../../services/links/get-public-link-or-throw.ts'
import { toPublicLinkResponse } from '../../services/links/to-link-response.ts'

/** The payer's side under /api/pay: the public read of an enabled link. */
export const payRoutes: FastifyPluginAsyncZod = async (app) => {
  // The cache hands out the same row object until a write replaces it, so its answer (checked by
  // the response schema's zod object, as the route serializer would) is serialized once per row,
  // and compressed once when long: this route is registered outside the compression scope.
  const answers = new WeakMap<Link, CachedJsonAnswer<{ data: PublicLinkResponse }>>()
  const getAnswer = (link: Link) => {
    let answer = answers.get(link)
    if (answer === undefined) {
      const body = { data: publicLinkSchema.parse(toPublicLinkResponse(link)) }
      answer = { body, text: JSON.stringify(body), encoded: {} }
      answers.set(link, answer)
    }
    return answer
  }

  app.get(
    '/pay/links/:slug',
    {
      schema: {
        summary: 'An enabled link by its slug (public, ignoring case); 404 when unknown or disabled',
        tags: ['pay'],
        params: publicLinkParamsSchema,
        response: { 200: publicLinkResponseSchema, 404: errorResponseSchema },
      },
    },
    // GET /api/pay/links/{slug}: the payer's view of an enabled link, or 404 'This link is unavailable.'
    async (request, reply) => {
      const link = await getPublicLinkOrThrow(app.db, app.readCaches.publicLinks, request.params.slug)
      return sendCachedJson(request.headers['accept-encoding'], reply, getAnswer(link))
    },
  )
}
