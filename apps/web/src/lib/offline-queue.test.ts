import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../test/test-server'
import { createApiClient } from './api-client'
import { enqueueOfflineRequest, listOfflineRequests, startOfflineReplay } from './offline-queue'

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

    const response = await client.send('/api/links', { method: 'POST', body: { alias: 'Coffee' } })

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
      await client.send('/api/links', { method: 'POST', body: { alias } })
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
    await client.send('/api/links', { method: 'POST', body: { alias: 'ok-1' } })
    await client.send('/api/links', { method: 'POST', body: { alias: 'rejected' } })
    await client.send('/api/links', { method: 'POST', body: { alias: 'ok-2' } })
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
    expect(writes(server.requests).map((request) => JSON.parse(request.body).alias)).toEqual([
      'ok-1',
      'rejected',
      'ok-2',
    ])

    reject = false
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(offlineKeys()).toEqual([]))
  })
})
