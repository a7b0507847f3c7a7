import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  deleteLinkResponseSchema,
  type LinkListResponse,
  linkIdParamsSchema,
  linkListResponseSchema,
  linkResponseSchema,
} from '@quicklinks/core/api/link'
import { createLinkRequestSchema, updateLinkRequestSchema } from '@quicklinks/core/api/links'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Link } from '../../db/schema.ts'
import { type CachedJsonAnswer, sendCachedJson } from '../../services/http/encode-once.ts'
import { createLink } from '../../services/links/create-link.ts'
import { deleteLink } from '../../services/links/delete-link.ts'
import { getOwnedLinkOrThrow } from '../../services/links/get-owned-link-or-throw.ts'
import { listLinks } from '../../services/links/list-links.ts'
import { toLinkResponse } from '../../services/links/to-link-response.ts'
import { updateLink } from '../../services/links/update-link.ts'

/**
 * The owner's payment links under /api/links: list, create, read, update, delete. Registered in
 * the signed-in scope, whose preHandler answers 401 when signed out. API keys with links:read
 * read them, with links:write change them (docs/api.md#api-keys).
 */
export const linksRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.routingProvider
  // The cache hands out the same list until a write replaces it, so its answer (checked by the
  // response schema, as the route serializer would) is serialized once per list.
  const listAnswers = new WeakMap<Link[], CachedJsonAnswer<LinkListResponse>>()
  const getListAnswer = (rows: Link[]) => {
    let answer = listAnswers.get(rows)
    if (answer === undefined) {
      const body = linkListResponseSchema.parse({ data: rows.map(toLinkResponse) })
      answer = { body, text: JSON.stringify(body), encoded: {} }
      listAnswers.set(rows, answer)
    }
    return answer
  }

  app.get(
    '/links',
    {
      config: { apiKeyScopes: ['links:read'] },
      schema: {
        summary: "The signed-in user's links, newest first",
        tags: ['links'],
        response: { 200: linkListResponseSchema, 401: errorResponseSchema },
      },
    },
    // GET /api/links: only the caller's links, from the read cache that every link write invalidates.
    async (request, reply) => {
      const user = request.signedInUser
      const rows = await app.readCaches.linkLists.get(user.id, () => listLinks(app.db, user.id))
      // A long list is compressed once per list, not once per request.
      return sendCachedJson(request.headers['accept-encoding'], reply, getListAnswer(rows))
    },
  )

  app.post(
    '/links',
    {
      config: { apiKeyScopes: ['links:write'] },
      schema: {
        summary: 'Creates a link; the same idempotency_key from the same user returns the first link (200)',
        tags: ['links'],
        body: createLinkRequestSchema,
        response: {
          200: linkResponseSchema,
          201: linkResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // POST /api/links: validate, check chain and token with the routing provider, create once per idempotency key.
    async (request, reply) => {
      const user = request.signedInUser
      const { link, isNew } = await createLink(
        app.db,
        provider,
        { userId: user.id, request: request.body },
        app.readCaches,
      )
      reply.status(isNew ? 201 : 200)
      return { data: toLinkResponse(link) }
    },
  )

  app.get(
    '/links/:id',
    {
      config: { apiKeyScopes: ['links:read'] },
      schema: {
        summary: "One of the signed-in user's links; 404 for another user's",
        tags: ['links'],
        params: linkIdParamsSchema,
        response: { 200: linkResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    // GET /api/links/{id}: the caller's link, or 404 NOT_FOUND.
    async (request) => {
      const user = request.signedInUser
      const link = await getOwnedLinkOrThrow(app.db, { userId: user.id, id: request.params.id })
      return { data: toLinkResponse(link) }
    },
  )

  app.put(
    '/links/:id',
    {
      config: { apiKeyScopes: ['links:write'] },
      schema: {
        summary:
          'Updates alias, alias_slug, message, amount, account_type, enabled, favorite, settings; receiver, chain and token are fixed',
        tags: ['links'],
        params: linkIdParamsSchema,
        body: updateLinkRequestSchema,
        response: {
          200: linkResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
    },
    // PUT /api/links/{id}: edit the caller's link, or 404 NOT_FOUND.
    async (request) => {
      const user = request.signedInUser
      const link = await updateLink(
        app.db,
        { userId: user.id, id: request.params.id, request: request.body },
        app.readCaches,
        provider,
      )
      return { data: toLinkResponse(link) }
    },
  )

  app.delete(
    '/links/:id',
    {
      config: { apiKeyScopes: ['links:write'] },
      schema: {
        summary: "Deletes one of the signed-in user's links; 404 for another user's",
        tags: ['links'],
        params: linkIdParamsSchema,
        response: {
          200: deleteLinkResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    // DELETE /api/links/{id}: remove the caller's link, or 404 NOT_FOUND.
    async (request) => {
      const user = request.signedInUser
      await deleteLink(app.db, { userId: user.id, id: request.params.id }, app.readCaches)
      return { data: { id: request.params.id } }
    },
  )
}
