import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageCookie,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../test/test-server'
import { createApiClient } from './api-client'
import {
  enqueueOfflineRequest,
  listOfflineRequests,
  removeOfflineRequest,
  startOfflineReplay,
  subscribeOfflineQueue,
} from './offline-queue'

let server: TestServer
let online = true
const stops: Array<() => void> = []

const writes = (requests: RecordedRequest[]) => requests.filter((request) => request.method !== 'GET')
const offlineKeys = () =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith('offline-'))
    .sort()

beforeAll(async () => {
  server = await startTestServer()
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  online = true
  setPageUrl(`${server.origin}/`)
  clearCookies()
  server.requests.length = 0
  server.handle((request, response) => {
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
      return
    }
    sendJson(response, 201, { data: JSON.parse(request.body || 'null') })
  })
})
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

describe('offline queue', () => {
  it('stores a write made while the browser is offline and answers 202 {offline: true}', async () => {
    online = false
    const client = createApiClient()

    const response = await client.send('/api/links', {
      method: 'POST',
      body: { alias: 'Coffee' },
      queueWhenOffline: true,
    })

    expect(response.status).toBe(202)
    expect(await response.json()).toEqual({ offline: true })
    expect(server.requests).toEqual([])
    const keys = offlineKeys()
    expect(keys).toHaveLength(1)
    expect(keys[0]).toMatch(/^offline-\d+$/)
    const stored = JSON.parse(localStorage.getItem(keys[0] ?? '') ?? '{}')
    expect(stored).toMatchObject({ method: 'POST', path: '/api/links', body: '{"alias":"Coffee"}' })
  })

  it('queues a write whose fetch fails with a network error', async () => {
    const closed = await startTestServer()
    await closed.close()
    const client = createApiClient({ baseUrl: closed.origin })

    const body = await client.request('/api/links/3', z.unknown(), {
      method: 'PUT',
      body: { favorite: true },
      queueWhenOffline: true,
    })

    expect(body).toEqual({ offline: true })
    expect(listOfflineRequests().map((entry) => entry.request.path)).toEqual(['/api/links/3'])
  })

  it('does not queue reads: an offline read fails', async () => {
    online = false
    const closed = await startTestServer()
    await closed.close()
    const client = createApiClient({ baseUrl: closed.origin })

    await expect(client.request('/api/links', z.unknown())).rejects.toMatchObject({ code: 'NETWORK' })
    expect(offlineKeys()).toEqual([])
  })

  it('gives writes made in the same millisecond distinct keys in the order they were made', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000)
    try {
      const keys = [1, 2, 3].map((n) =>
        enqueueOfflineRequest({ method: 'POST', path: `/api/${n}`, headers: {}, body: null, queuedAt: '' }),
      )
      expect(new Set(keys).size).toBe(3)
      expect(listOfflineRequests().map((entry) => entry.request.path)).toEqual(['/api/1', '/api/2', '/api/3'])
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('replays queued writes in order when the browser comes back online and removes each one', async () => {
    online = false
    const client = createApiClient()
    for (const alias of ['first', 'second', 'third']) {
      await client.send('/api/links', { method: 'POST', body: { alias }, queueWhenOffline: true })
    }
    expect(offlineKeys()).toHaveLength(3)

    stops.push(startOfflineReplay(() => client.replayOfflineQueue()))
    expect(server.requests).toEqual([])
    online = true
    window.dispatchEvent(new Event('online'))

    await vi.waitFor(() => expect(offlineKeys()).toEqual([]))
    const replayed = writes(server.requests)
    expect(replayed.map((request) => JSON.parse(request.body).alias)).toEqual(['first', 'second', 'third'])
    expect(replayed.every((request) => request.headers['x-csrf-token'] === 'token-1')).toBe(true)
  })

  it('keeps a write whose replay fails, logs it, and sends it on the next online event', async () => {
    online = false
    const logger = { warn: vi.fn(), error: vi.fn() }
    const client = createApiClient({ logger })
    await client.send('/api/links', { method: 'POST', body: { alias: 'ok-1' }, queueWhenOffline: true })
    await client.send('/api/links', { method: 'POST', body: { alias: 'rejected' }, queueWhenOffline: true })
    await client.send('/api/links', { method: 'POST', body: { alias: 'ok-2' }, queueWhenOffline: true })
    const [, rejectedKey] = offlineKeys()
    let reject = true
    server.handle((request, response) => {
      if (request.path === '/health') {
        sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
      } else if (reject && request.body.includes('rejected')) {
        sendJson(response, 503, { error: { code: 'UPSTREAM_FAILED', message: 'Try later.' } })
      } else {
        sendJson(response, 201, { data: {} })
      }
    })

    stops.push(startOfflineReplay(() => client.replayOfflineQueue()))
    online = true
    window.dispatchEvent(new Event('online'))

    await vi.waitFor(() => expect(offlineKeys()).toEqual([rejectedKey]))
    expect(logger.error).toHaveBeenCalledTimes(1)
    // The entry says why, for the card that shows it.
    expect(listOfflineRequests()[0]?.request.lastError).toBe('Try later.')
    expect(writes(server.requests).map((request) => JSON.parse(request.body).alias)).toEqual([
      'ok-1',
      'rejected',
      'ok-2',
    ])

    reject = false
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(offlineKeys()).toEqual([]))
  })

  it('sends a write that does not opt in, and fails it offline instead of queueing it', async () => {
    online = false
    const closed = await startTestServer()
    await closed.close()
    const client = createApiClient({ baseUrl: closed.origin })

    await expect(
      client.request('/api/route', z.unknown(), { method: 'POST', body: { amount: '1' } }),
    ).rejects.toMatchObject({ code: 'NETWORK' })
    await expect(
      client.request('/api/route', z.unknown(), { method: 'POST', body: {}, queueWhenOffline: false }),
    ).rejects.toMatchObject({ code: 'NETWORK' })
    expect(offlineKeys()).toEqual([])
  })

  it('replays with the CSRF token of replay time, fetching a fresh one when the held cookie is refused', async () => {
    online = false
    const client = createApiClient()
    await client.send('/api/links/1', { method: 'PUT', body: { favorite: true }, queueWhenOffline: true })
    // While offline the token rotated: the cookie the page holds now is stale.
    setPageCookie('csrf_token', 'stale')
    server.handle((request, response) => {
      if (request.path === '/health') {
        sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=fresh; Path=/' })
      } else if (request.headers['x-csrf-token'] !== 'fresh') {
        sendJson(response, 403, { error: { code: 'FORBIDDEN', message: 'Bad CSRF token' } })
      } else {
        sendJson(response, 200, { data: {} })
      }
    })

    online = true
    const result = await client.replayOfflineQueue()

    expect(result.failed).toEqual([])
    expect(offlineKeys()).toEqual([])
    expect(writes(server.requests).map((request) => request.headers['x-csrf-token'])).toEqual([
      'stale',
      'fresh',
    ])
  })

  it('removes a replayed DELETE the server answers 404 (already deleted) and keeps a PUT of a missing link', async () => {
    online = false
    const client = createApiClient()
    await client.send('/api/links/gone', { method: 'DELETE', queueWhenOffline: true })
    await client.send('/api/links/other', { method: 'PUT', body: {}, queueWhenOffline: true })
    server.handle((request, response) => {
      if (request.path === '/health') {
        sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
      } else {
        sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Link not found' } })
      }
    })

    online = true
    const result = await client.replayOfflineQueue()

    expect(result.replayed).toHaveLength(1)
    const left = listOfflineRequests()
    expect(left.map((entry) => [entry.request.method, entry.request.lastError])).toEqual([
      ['PUT', 'Link not found'],
    ])
  })

  it('tells subscribers when a write is queued, replayed or discarded', async () => {
    online = false
    const changes = vi.fn()
    stops.push(subscribeOfflineQueue(changes))
    const client = createApiClient()
    await client.send('/api/links/1', { method: 'PUT', body: {}, queueWhenOffline: true })
    await client.send('/api/links/2', { method: 'PUT', body: {}, queueWhenOffline: true })
    expect(changes).toHaveBeenCalledTimes(2)

    const [first, second] = offlineKeys()
    removeOfflineRequest(second ?? '')
    expect(changes).toHaveBeenCalledTimes(3)
    expect(offlineKeys()).toEqual([first])

    online = true
    await client.replayOfflineQueue()
    expect(changes).toHaveBeenCalledTimes(4)
    expect(offlineKeys()).toEqual([])
  })
})
