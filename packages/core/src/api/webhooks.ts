import * as z from 'zod/mini'
import { describeSchema } from './describe-schema.ts'
import { nameSchema } from './name-schema.ts'

/**
 * Webhooks (docs/api.md#webhooks): endpoints a payee registers to hear of payments, invoices and
 * links, each delivery signed per Standard Webhooks from a persistent outbox.
 */

/** Every event type, each sent only to endpoints subscribed to it (`webhook.test` on request). */
export const webhookEventTypes = [
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'invoice.paid',
  'invoice.paid_over',
  'invoice.underpaid',
  'invoice.expired',
  'invoice.paid_late',
  'link.created',
  'link.updated',
  'link.deleted',
] as const

export const webhookEventTypeSchema = z.enum(webhookEventTypes)

/** One event type an endpoint can subscribe to. */
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>

export const webhookMaxUrlLength = 2048
export const webhookMaxDescriptionLength = 200
/** Endpoints one user may hold. */
export const webhookMaxEndpoints = 20

const urlSchema = z.string({ error: 'url must be text' }).check(
  z.trim(),
  z.maxLength(webhookMaxUrlLength, `url must be at most ${webhookMaxUrlLength} characters`),
  z.refine(
    (text: string) => {
      try {
        const url = new URL(text)
        return (
          (url.protocol === 'https:' || url.protocol === 'http:') &&
          url.username === '' &&
          url.password === ''
        )
      } catch {
        return false
      }
    },
    { message: 'url must be an https URL without credentials' },
  ),
)

const descriptionSchema = z.optional(
  z.nullable(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(
          webhookMaxDescriptionLength,
          `description must be at most ${webhookMaxDescriptionLength} characters`,
        ),
        z.regex(/^[^\p{Cc}]*$/u, 'description must not contain control characters'),
      ),
  ),
)

const eventsSchema = z
  .array(webhookEventTypeSchema)
  .check(z.minLength(1, 'events must name at least one event type'))

/** POST /api/webhooks's body. */
export const createWebhookRequestSchema = z.object({
  url: describeSchema(urlSchema, 'Where deliveries go: https (http only in dev mode)'),
  events: describeSchema(eventsSchema, 'The event types to deliver'),
  description: descriptionSchema,
})

/** PUT /api/webhooks/{id}'s body: any of the fields, and `enabled` to pause or resume. */
export const updateWebhookRequestSchema = z.object({
  url: z.optional(urlSchema),
  events: z.optional(eventsSchema),
  description: descriptionSchema,
  enabled: z.optional(z.boolean()),
})

/** A webhook endpoint as its owner sees it (never its secret, except when made or rotated). */
export const webhookEndpointSchema = nameSchema(
  z.object({
    id: z.string(),
    url: z.string(),
    description: z.nullable(z.string()),
    events: z.array(webhookEventTypeSchema),
    enabled: z.boolean(),
    /** Why the server disabled it (5 days of failures), null otherwise. */
    disabledReason: z.nullable(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
  'WebhookEndpoint',
)

/** A webhook endpoint. */
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>

/** The answer of POST /api/webhooks and POST /api/webhooks/{id}/rotate-secret: the secret, once. */
export const webhookWithSecretResponseSchema = z.object({
  data: z.extend(webhookEndpointSchema, {
    secret: describeSchema(z.string(), 'whsec_ + base64: shown in this answer only'),
  }),
})

/** The answer of GET, PUT and DELETE /api/webhooks/{id}. */
export const webhookResponseSchema = z.object({ data: webhookEndpointSchema })

/** The answer of GET /api/webhooks. */
export const webhookListResponseSchema = z.object({ data: z.array(webhookEndpointSchema) })

/** The path of the /api/webhooks/{id} routes. */
export const webhookIdParamsSchema = z.object({
  id: describeSchema(z.string().check(z.maxLength(64)), 'The endpoint id (a UUID)'),
})

/** One delivery of an event to an endpoint, with its last attempt (the delivery log). */
export const webhookDeliverySchema = nameSchema(
  z.object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.int(),
    nextAttemptAt: z.nullable(z.iso.datetime()),
    lastStatusCode: z.nullable(z.int()),
    lastLatencyMs: z.nullable(z.int()),
    lastResponseExcerpt: z.nullable(z.string()),
    lastError: z.nullable(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
  'WebhookDelivery',
)

/** A delivery as the log lists it. */
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

/** The answer of GET /api/webhooks/{id}/deliveries: newest first. */
export const webhookDeliveryListResponseSchema = z.object({
  data: z.array(webhookDeliverySchema),
  nextCursor: z.nullable(z.string()),
})

/** What every delivery's body is: the event's type, when it happened, and the API's own object. */
export const webhookPayloadSchema = z.object({
  type: z.union([webhookEventTypeSchema, z.literal('webhook.test')]),
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
})

/** A delivery's body. */
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>
