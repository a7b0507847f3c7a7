import {
  apiKeyIdParamsSchema,
  apiKeyListResponseSchema,
  apiKeyResponseSchema,
  createApiKeyRequestSchema,
  createdApiKeyResponseSchema,
} from '@quicklinks/core/api/api-keys'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  toApiKeyResponse,
} from '../../services/api-keys/manage-api-keys.ts'

/**
 * The owner's API keys under /api/api-keys (docs/api.md#api-keys): list, create (the key shown in
 * that answer only), revoke. Signed-in scope; none of them names `apiKeyScopes`, so a key can
 * neither see nor make keys (403), only a browser session with its CSRF token can.
 */
export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api-keys',
    {
      schema: {
        summary: "The signed-in user's API keys, newest first (never the keys themselves)",
        tags: ['api-keys'],
        response: { 200: apiKeyListResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => ({ data: (await listApiKeys(app.db, request.signedInUser.id)).map(toApiKeyResponse) }),
  )

  app.post(
    '/api-keys',
    {
      // Making keys is rare: a tight limit per client stops a script from minting them in bulk.
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        summary: 'Creates an API key with scopes; the key is in this answer only',
        tags: ['api-keys'],
        body: createApiKeyRequestSchema,
        response: {
          201: createdApiKeyResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { row, key } = await createApiKey(app.db, { userId: request.signedInUser.id, ...request.body })
      request.log.info({ apiKeyId: row.id, scopes: row.scopes }, 'API key created')
      return reply.code(201).send({ data: { ...toApiKeyResponse(row), key } })
    },
  )

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        summary: 'Revokes an API key at once, on every instance',
        tags: ['api-keys'],
        params: apiKeyIdParamsSchema,
        response: {
          200: apiKeyResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const row = await revokeApiKey(app.db, request.signedInUser.id, request.params.id)
      request.log.info({ apiKeyId: row.id }, 'API key revoked')
      return { data: toApiKeyResponse(row) }
    },
  )
}
