import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  maxPublicLinkSlugParamLength,
  type PublicLinkResponse,
  publicLinkParamsSchema,
  publicLinkResponseSchema,
  publicLinkSchema,
} from '@quicklinks/core/api/pay'
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod'
import type { Link } from '../../db/schema.ts'
import { type CachedJsonAnswer, sendCachedJson } from '../../services/http/encode-once.ts'
import { buildUnavailableError, getPublicLinkOrThrow } from '../../services/links/get-public-link-or-throw.ts'
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
      // The router hands the slug over as a string of at most maxParamLength (100) characters, so
      // the params schema (a string of at most maxPublicLinkSlugParamLength; the route's only
      // schema) always passes: checked here in two compares, with zod's answer kept for anything
      // else, instead of a zod pass per read.
      validatorCompiler: (route) => {
        const validate = validatorCompiler({ ...route, schema: publicLinkParamsSchema })
        return (params: unknown) => {
          const isShortSlug =
            typeof params === 'object' &&
            params !== null &&
            'slug' in params &&
            typeof params.slug === 'string' &&
            params.slug.length <= maxPublicLinkSlugParamLength
          return isShortSlug ? { value: params } : validate(params)
        }
      },
    },
    // GET /api/pay/links/{slug}: the payer's view of an enabled link, or 404 'This link is unavailable.'
    // Not async: a cached slug (nearly every read) answers at once, without a promise per read;
    // and it returns nothing once sent (a returned reply is a thenable Fastify would wait on).
    (request, reply) => {
      const { slug } = request.params
      const cached = app.readCaches.publicLinks.peek(slug)
      if (cached === undefined) {
        return getPublicLinkOrThrow(app.db, app.readCaches.publicLinks, slug).then((link) => {
          sendCachedJson(request.headers['accept-encoding'], reply, getAnswer(link))
        })
      }
      if (cached.value === undefined) throw buildUnavailableError(slug)
      sendCachedJson(request.headers['accept-encoding'], reply, getAnswer(cached.value))
    },
  )
}
