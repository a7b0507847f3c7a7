import type { WebhookDelivery, WebhookEndpoint } from '@quicklinks/core/api/webhooks'
import type { RecordedRequest, TestServer } from './test-server'
import { sendJson } from './test-server'

/** The moment every fake record was made. */
export const fakeCreatedAt = '2026-11-28T10:00:00.000Z'
/** The secret POST /api/webhooks and rotate-secret answer. */
export const fakeSecret = `whsec_${'c2VjcmV0'.repeat(4)}`

/** An endpoint as GET /api/webhooks lists it, with `patch` over the defaults. */
export function buildEndpoint(patch: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 'e0000000-0000-4000-8000-000000000001',
    url: 'https://shop.example/hooks',
    description: null,
    events: ['payment.succeeded'],
    enabled: true,
    disabledReason: null,
    createdAt: fakeCreatedAt,
    updatedAt: fakeCreatedAt,
    ...patch,
  }
}

/** A delivery as the log lists it, with `patch` over the defaults (one successful try). */
export function buildDelivery(patch: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 'd0000000-0000-4000-8000-000000000001',
    eventId: 'msg_2Xo0000000000000000000001',
    eventType: 'webhook.test',
    state: 'succeeded',
    attempts: 1,
    nextAttemptAt: null,
    lastStatusCode: 200,
    lastLatencyMs: 42,
    lastResponseExcerpt: 'ok',
    lastError: null,
    attemptLog: [
      {
        attempt: 1,
        at: fakeCreatedAt,
        statusCode: 200,
        latencyMs: 42,
        responseExcerpt: 'ok',
        error: null,
      },
    ],
    createdAt: fakeCreatedAt,
    updatedAt: fakeCreatedAt,
    ...patch,
  }
}

/** The fake server's state: tests read and change it between requests. */
export type FakeWebhooksApi = {
  endpoints: WebhookEndpoint[]
  /** Each endpoint's log, newest first. */
  deliveries: Map<string, WebhookDelivery[]>
  /** Every request except GET /health, in order. */
  seen: RecordedRequest[]
  /** Answers the next POST /api/webhooks with this error instead of creating. */
  createError?: { status: number; code: string; message: string; field?: string }
}

const notFound = { error: { code: 'NOT_FOUND', message: 'Not found.' } }

/**
 * Serves /api/webhooks/** on `server` from an in-memory state, as the real routes answer: create
 * (with the secret), PUT enabled, DELETE, rotate-secret, test (a pending delivery) and redeliver
 * (back to pending). The test moves a pending delivery on by changing `deliveries`.
 */
export function serveFakeWebhooksApi(server: TestServer, endpoints: WebhookEndpoint[] = []): FakeWebhooksApi {
  const state: FakeWebhooksApi = { endpoints, deliveries: new Map(), seen: [] }
  server.handle((request, response) => {
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=t; Path=/' })
      return
    }
    state.seen.push(request)
    const [path = ''] = request.path.split('?')
    const [, , , id, action, deliveryId, deliveryAction] = path.split('/')
    const endpoint = state.endpoints.find((item) => item.id === id)
    if (path === '/api/webhooks' && request.method === 'GET') {
      return sendJson(response, 200, { data: state.endpoints })
    }
    if (path === '/api/webhooks' && request.method === 'POST') {
      if (state.createError !== undefined) {
        const { status, ...error } = state.createError
        return sendJson(response, status, { error })
      }
      const body = JSON.parse(request.body) as Pick<WebhookEndpoint, 'url' | 'events'> & {
        description?: string
      }
      const made = buildEndpoint({
        id: `e0000000-0000-4000-8000-00000000010${state.endpoints.length}`,
        url: body.url,
        // The server keeps the events sorted.
        events: [...body.events].sort(),
        description: body.description ?? null,
      })
      state.endpoints.unshift(made)
      return sendJson(response, 201, { data: { ...made, secret: fakeSecret } })
    }
    if (endpoint === undefined) return sendJson(response, 404, notFound)
    const log = state.deliveries.get(endpoint.id) ?? []
    if (action === undefined && request.method === 'PUT') {
      const { enabled } = JSON.parse(request.body) as { enabled: boolean }
      Object.assign(endpoint, { enabled, disabledReason: null })
      return sendJson(response, 200, { data: endpoint })
    }
    if (action === undefined && request.method === 'DELETE') {
      state.endpoints = state.endpoints.filter((item) => item !== endpoint)
      return sendJson(response, 200, { data: endpoint })
    }
    if (action === 'rotate-secret')
      return sendJson(response, 200, { data: { ...endpoint, secret: fakeSecret } })
    if (action === 'test') {
      const queued = buildDelivery({
        id: `d0000000-0000-4000-8000-00000000020${log.length}`,
        state: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastLatencyMs: null,
        lastResponseExcerpt: null,
        attemptLog: [],
      })
      state.deliveries.set(endpoint.id, [queued, ...log])
      return sendJson(response, 202, { data: queued })
    }
    if (action === 'deliveries' && deliveryId === undefined) {
      return sendJson(response, 200, { data: log, nextCursor: null })
    }
    const delivery = log.find((item) => item.id === deliveryId)
    if (delivery === undefined) return sendJson(response, 404, notFound)
    if (deliveryAction === 'redeliver') {
      delivery.state = 'pending'
      return sendJson(response, 202, { data: delivery })
    }
    sendJson(response, 404, notFound)
  })
  return state
}
