import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListResponseSchema,
  webhookDeliveryParamsSchema,
  webhookDeliveryResponseSchema,
  webhookIdParamsSchema,
  webhookListResponseSchema,
  webhookResponseSchema,
  webhookWithSecretResponseSchema,
} from '@quicklinks/core/api/webhooks'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getOwnedEndpointOrThrow,
  listWebhookEndpoints,
  rotateWebhookSecret,
  toWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../services/webhooks/manage-webhook-endpoints.ts'
import {
  getWebhookDeliveryOrThrow,
  listWebhookDeliveries,
  redeliverWebhook,
  sendTestWebhook,
} from '../../services/webhooks/webhook-delivery-log.ts'

const scopes = { apiKeyScopes: ['webhooks:write'] } as const
const errors = {
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  422: errorResponseSchema,
} as const
/** A paused or disabled endpoint sends nothing: a test or a redelivery would only wait. */
function assertEnabledOrThrow(endpoint: { enabled: boolean }): void {
  if (!endpoint.enabled) {
    throw new AppError('CONFLICT', {
      message: 'Webhook endpoint is paused',
      userMessage: 'This endpoint is paused: resume it first.',
    })
  }
}

/** Tests and redeliveries send requests to the merchant's server: a tight limit per client. */
const sendLimit = { max: 30, timeWindow: 60_000 }

/**
 * Webhook endpoints under /api/webhooks (docs/api.md#webhooks): register, list, read, change,
 * delete, rotate the secret, send a test event, read the delivery log and redeliver. Signed-in
 * scope: a browser session with CSRF, or an API key with `webhooks:write`; every id is checked
 * to be the caller's (404 otherwise).
 */
export const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const isDevMode = app.config.devMode

  app.get(
    '/webhooks',
    {
      config: scopes,
      schema: {
        summary: "The signed-in user's webhook endpoints, newest first (never their secrets)",
        tags: ['webhooks'],
        response: { 200: webhookListResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => ({
      data: (await listWebhookEndpoints(app.db, request.signedInUser.id)).map(toWebhookEndpoint),
    }),
  )

  app.post(
    '/webhooks',
    {
      config: { ...scopes, rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: {
        summary: 'Registers a webhook endpoint; its signing secret is in this answer only',
        tags: ['webhooks'],
        body: createWebhookRequestSchema,
        response: { 201: webhookWithSecretResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const row = await createWebhookEndpoint(app.db, {
        userId: request.signedInUser.id,
        ...request.body,
        isDevMode,
      })
      request.log.info({ webhookEndpointId: row.id, events: row.events }, 'Webhook endpoint created')
      return reply.code(201).send({ data: { ...toWebhookEndpoint(row), secret: row.secret } })
    },
  )

  app.get(
    '/webhooks/:id',
    {
      config: scopes,
      schema: {
        summary: 'One webhook endpoint',
        tags: ['webhooks'],
        params: webhookIdParamsSchema,
        response: { 200: webhookResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: toWebhookEndpoint(
        await getOwnedEndpointOrThrow(app.db, request.signedInUser.id, request.params.id),
      ),
    }),
  )

  app.put(
    '/webhooks/:id',
    {
      config: scopes,
      schema: {
        summary: "Changes an endpoint's URL, events, description, or pauses/resumes it (enabled)",
        tags: ['webhooks'],
        params: webhookIdParamsSchema,
        body: updateWebhookRequestSchema,
        response: { 200: webhookResponseSchema, ...errors },
      },
    },
    async (request) => {
      const row = await updateWebhookEndpoint(app.db, {
        userId: request.signedInUser.id,
        id: request.params.id,
        ...request.body,
        isDevMode,
      })
      return { data: toWebhookEndpoint(row) }
    },
  )

  app.delete(
    '/webhooks/:id',
    {
      config: scopes,
      schema: {
        summary: 'Deletes an endpoint and its delivery log; nothing more is sent to it',
        tags: ['webhooks'],
        params: webhookIdParamsSchema,
        response: { 200: webhookResponseSchema, ...errors },
      },
    },
    async (request) => {
      const row = await deleteWebhookEndpoint(app.db, request.signedInUser.id, request.params.id)
      request.log.info({ webhookEndpointId: row.id }, 'Webhook endpoint deleted')
      return { data: toWebhookEndpoint(row) }
    },
  )

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { ...scopes, rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        summary: 'Gives an endpoint a new secret (in this answer only); the old one also signs for 24 h',
        tags: ['webhooks'],
        params: webhookIdParamsSchema,
        response: { 200: webhookWithSecretResponseSchema, ...errors },
      },
    },
    async (request) => {
      const row = await rotateWebhookSecret(app.db, request.signedInUser.id, request.params.id, Date.now())
      request.log.info({ webhookEndpointId: row.id }, 'Webhook secret rotated')
      return { data: { ...toWebhookEndpoint(row), secret: row.secret } }
    },
  )

  app.post(
    '/webhooks/:id/test',
    {
      config: { ...scopes, rateLimit: sendLimit },
      schema: {
        summary: 'Queues a webhook.test event to this endpoint and answers its delivery',
        tags: ['webhooks'],
        params: webhookIdParamsSchema,
        response: { 202: webhookDeliveryResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const endpoint = await getOwnedEndpointOrThrow(app.db, request.signedInUser.id, request.params.id)
      assertEnabledOrThrow(endpoint)
      return reply.code(202).send({ data: await sendTestWebhook(app.db, endpoint, Date.now()) })
    },
  )

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: scopes,
      schema: {
        summary: "An endpoint's delivery log, newest first, each delivery with every try",
        tags: ['webhooks'],
        params: webhookIdParamsSchema,
        querystring: webhookDeliveryListQuerySchema,
        response: { 200: webhookDeliveryListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const endpoint = await getOwnedEndpointOrThrow(app.db, request.signedInUser.id, request.params.id)
      return listWebhookDeliveries(app.db, endpoint.id, {
        cursor: request.query.cursor,
        limit: request.query.limit ?? 20,
      })
    },
  )

  app.get(
    '/webhooks/:id/deliveries/:deliveryId',
    {
      config: scopes,
      schema: {
        summary: 'One delivery of the log with every try',
        tags: ['webhooks'],
        params: webhookDeliveryParamsSchema,
        response: { 200: webhookDeliveryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const endpoint = await getOwnedEndpointOrThrow(app.db, request.signedInUser.id, request.params.id)
      return { data: await getWebhookDeliveryOrThrow(app.db, endpoint.id, request.params.deliveryId) }
    },
  )

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: { ...scopes, rateLimit: sendLimit },
      schema: {
        summary: 'Sends a delivery again now, with the same webhook-id and body',
        tags: ['webhooks'],
        params: webhookDeliveryParamsSchema,
        response: { 202: webhookDeliveryResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const endpoint = await getOwnedEndpointOrThrow(app.db, request.signedInUser.id, request.params.id)
      assertEnabledOrThrow(endpoint)
      const delivery = await redeliverWebhook(app.db, endpoint.id, request.params.deliveryId, Date.now())
      return reply.code(202).send({ data: delivery })
    },
  )
}
