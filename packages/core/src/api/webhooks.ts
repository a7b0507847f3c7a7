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

/** One try of a delivery, as the log shows it. */
export const webhookAttemptSchema = nameSchema(
  z.object({
    attempt: describeSchema(z.int(), '1 for the first try'),
    at: z.iso.datetime(),
    statusCode: describeSchema(z.nullable(z.int()), 'null when no answer came'),
    latencyMs: z.int(),
    responseExcerpt: describeSchema(z.string(), "The start of the receiver's answer (at most 1 KB)"),
    error: describeSchema(z.nullable(z.string()), 'Why no answer came (time-out, refused address)'),
  }),
  'WebhookAttempt',
)

/** One try of a delivery. */
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>

/** A delivery's state: pending (a try is due or in flight), succeeded (a 2xx came), failed (8 tries failed). */
export const webhookDeliveryStates = ['pending', 'succeeded', 'failed'] as const

/** One event to one endpoint with every try made (the delivery log). */
export const webhookDeliverySchema = nameSchema(
  z.object({
    id: z.string(),
    eventId: describeSchema(z.string(), 'The webhook-id header of every try'),
    eventType: z.string(),
    state: z.enum(webhookDeliveryStates),
    attempts: describeSchema(z.int(), 'Tries made so far'),
    nextAttemptAt: describeSchema(z.nullable(z.iso.datetime()), 'When the next try goes, if one is due'),
    lastStatusCode: z.nullable(z.int()),
    lastLatencyMs: z.nullable(z.int()),
    lastResponseExcerpt: z.nullable(z.string()),
    lastError: z.nullable(z.string()),
    /** Every try, newest first. */
    attemptLog: z.array(webhookAttemptSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
  'WebhookDelivery',
)

/** A delivery as the log lists it. */
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

/** GET /api/webhooks/{id}/deliveries's query. */
export const webhookDeliveryListQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, 'limit must be a whole number')),
      z.transform((text: string) => Math.min(Math.max(Number(text), 1), 100)),
    ),
  ),
})

/** The answer of GET /api/webhooks/{id}/deliveries: newest first. */
export const webhookDeliveryListResponseSchema = z.object({
  data: z.array(webhookDeliverySchema),
  nextCursor: z.nullable(z.string()),
})

/** The answer of POST /api/webhooks/{id}/test and of a redelivery: the delivery queued. */
export const webhookDeliveryResponseSchema = z.object({ data: webhookDeliverySchema })

/** The path of /api/webhooks/{id}/deliveries/{deliveryId}/redeliver. */
export const webhookDeliveryParamsSchema = z.object({
  id: describeSchema(z.string().check(z.maxLength(64)), 'The endpoint id (a UUID)'),
  deliveryId: describeSchema(z.string().check(z.maxLength(64)), 'The delivery id (a UUID)'),
})

/** What every delivery's body is: the event's type, when it happened, and the API's own object. */
export const webhookPayloadSchema = z.object({
  type: z.union([webhookEventTypeSchema, z.literal('webhook.test')]),
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
})

/** A delivery's body. */
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>
