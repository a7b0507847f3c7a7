import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageCookie,
  setPageUrl,
  startTestServer,
  type TestHandler,
  type TestServer,
} from '../../test/test-server'
import { createApiClient } from './api-client'
import {
  clearOfflineQueue,
  enqueueOfflineRequest,
  listOfflineRequests,
  removeOfflineRequest,
  setOfflineQueueOwner,
  startOfflineReplay,
  subscribeOfflineQueue,
} from './offline-queue'

const userA = '0a4bd1d6-1111-4c51-9b35-3f8e6f1c2d7a'
const userB = '0b4bd1d6-2222-4c51-9b35-3f8e6f1c2d7b'

let server: TestServer
let online = true
/** Whom the server's session cookie signs in: GET /api/auth/me answers this user, or 401 when null. */
let signedInUser: string | null = userA
const stops: Array<() => void> = []

/** The server as the app has it: the CSRF cookie at /health, the session at /api/auth/me, else `handler`. */
function withSession(handler: TestHandler): TestHandler {
  return (request, response) => {
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
    } else if (request.path === '/api/auth/me') {
      if (signedInUser === null)
        sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Sign in' } })
      else {
        sendJson(response, 200, {
          data: {
            id: signedInUser,
            address: '0xabc',
            email: null,
            username: null,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        })
      }
    } else {
      handler(request, response)
    }
  }
}

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
  signedInUser = userA
  // User A's session answered: what the app's session check tells the queue.
  setOfflineQueueOwner(userA)
  setPageUrl(`${server.origin}/`)
  clearCookies()
  server.requests.length = 0
  server.handle(
    withSession((request, response) => {
      sendJson(response, 201, { data: JSON.parse(request.body || 'null') })
    }),
  )
})
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  setOfflineQueueOwner(null)
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
    expect(stored).toMatchObject({
      owner: userA,
      method: 'POST',
      path: '/api/links',
      body: '{"alias":"Coffee"}',
    })
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
        enqueueOfflineRequest({
          owner: userA,
          method: 'POST',
          path: `/api/${n}`,
          headers: {},
          body: null,
          queuedAt: '',
        }),
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
    server.handle(
      withSession((request, response) => {
        if (reject && request.body.includes('rejected')) {
          sendJson(response, 503, { error: { code: 'UPSTREAM_FAILED', message: 'Try later.' } })
        } else {
          sendJson(response, 201, { data: {} })
        }
      }),
    )

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
      } else if (request.path === '/api/auth/me') {
        withSession(() => undefined)(request, response)
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
    server.handle(
      withSession((_request, response) => {
        sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Link not found' } })
      }),
    )

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

describe("the offline queue is the signed-in user's own", () => {
  /** User A, offline, changes two links: both writes are queued for A. */
  async function queueWritesOfUserA(): Promise<ReturnType<typeof createApiClient>> {
    online = false
    const client = createApiClient()
    await client.send('/api/links/a-1', { method: 'PUT', body: { favorite: true }, queueWhenOffline: true })
    await client.send('/api/links/a-2', { method: 'DELETE', queueWhenOffline: true })
    expect(listOfflineRequests().map((entry) => entry.request.owner)).toEqual([userA, userA])
    online = true
    return client
  }

  it("never sends user A's queued writes after user B signs in here: they are dropped at B's sign-in", async () => {
    const client = await queueWritesOfUserA()
    // B signs in on this device (what signInWithWallet and the session check tell the queue).
    signedInUser = userB
    setOfflineQueueOwner(userB)
    expect(offlineKeys()).toEqual([])

    stops.push(startOfflineReplay(() => client.replayOfflineQueue()))
    window.dispatchEvent(new Event('online'))
    await client.replayOfflineQueue()
    expect(writes(server.requests)).toEqual([])
  })

  it("never sends user A's queued writes into user B's session when B signed in elsewhere (another tab)", async () => {
    const client = await queueWritesOfUserA()
    // This tab still believes A is signed in; the shared cookie is B's now.
    signedInUser = userB

    const result = await client.replayOfflineQueue()

    expect(result).toEqual({ replayed: [], failed: [] })
    expect(writes(server.requests)).toEqual([])
    expect(offlineKeys()).toEqual([])
    // Asked first who is signed in, and sent nothing after the answer.
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/auth/me',
    ])
  })

  it('sends nothing while signed out and keeps the writes for their owner, who gets them replayed on signing back in', async () => {
    const client = await queueWritesOfUserA()
    signedInUser = null
    expect(await client.replayOfflineQueue()).toEqual({ replayed: [], failed: [] })
    expect(writes(server.requests)).toEqual([])
    expect(offlineKeys()).toHaveLength(2)

    signedInUser = userA
    const result = await client.replayOfflineQueue()
    expect(result.replayed).toHaveLength(2)
    expect(writes(server.requests).map((request) => `${request.method} ${request.path}`)).toEqual([
      'PUT /api/links/a-1',
      'DELETE /api/links/a-2',
    ])
  })

  it('drops the whole queue at logout, and queues nothing while nobody is signed in', async () => {
    await queueWritesOfUserA()
    clearOfflineQueue()
    expect(offlineKeys()).toEqual([])

    online = false
    const closed = await startTestServer()
    await closed.close()
    await expect(
      createApiClient({ baseUrl: closed.origin }).send('/api/links/a-3', {
        method: 'PUT',
        body: {},
        queueWhenOffline: true,
      }),
    ).rejects.toMatchObject({ code: 'NETWORK' })
    expect(offlineKeys()).toEqual([])
  })

  it('drops, unsent, an entry without an owner (queued before entries had one)', async () => {
    localStorage.setItem(
      'offline-1700000000000',
      JSON.stringify({ method: 'DELETE', path: '/api/links/old', headers: {}, body: null, queuedAt: '' }),
    )
    const client = createApiClient({ logger: { warn: vi.fn(), error: vi.fn() } })
    await client.replayOfflineQueue()
    expect(writes(server.requests)).toEqual([])
    expect(offlineKeys()).toEqual([])
  })
})
