import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearCookies,
  sendJson,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../../test/test-server'
import { createApiClient } from '../../lib/api-client'
import { listOfflineRequests, setOfflineQueueOwner } from '../../lib/offline-queue'
import { getSession, logout } from './session'
import { signInWithWallet } from './sign-in-with-wallet'

// The session's plain functions tell the offline queue who is signed in (docs/product.md#offline-queue):
// a sign-in by another user and a logout drop what the previous user queued, before anything replays it.

const userA = '0a4bd1d6-1111-4c51-9b35-3f8e6f1c2d7a'
const userB = '0b4bd1d6-2222-4c51-9b35-3f8e6f1c2d7b'

let server: TestServer
let online = true
/** Whom the server's session signs in: /api/auth/me answers them, and /api/auth/login makes it this user. */
let sessionUser: string | null = userA
let loginUser = userB

const user = (id: string) => ({
  data: { id, address: '0xabc', email: null, username: null, createdAt: '2026-01-01T00:00:00.000Z' },
})

beforeAll(async () => {
  server = await startTestServer()
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  online = true
  sessionUser = userA
  loginUser = userB
  setPageUrl(`${server.origin}/`)
  clearCookies()
  server.requests.length = 0
  server.handle((request, response) => {
    if (request.path === '/health') {
      sendJson(response, 200, {}, { 'Set-Cookie': 'csrf_token=token-1; Path=/' })
    } else if (request.path === '/api/auth/me') {
      if (sessionUser === null)
        sendJson(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Sign in' } })
      else sendJson(response, 200, user(sessionUser))
    } else if (request.path === '/api/auth/nonce') {
      sendJson(response, 200, { data: { nonce: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6' } })
    } else if (request.path === '/api/auth/login') {
      sessionUser = loginUser
      sendJson(response, 200, user(loginUser))
    } else if (request.path === '/api/auth/logout') {
      sessionUser = null
      sendJson(response, 200, { data: { ok: true } })
    } else {
      sendJson(response, 200, { data: {} })
    }
  })
})
afterEach(() => {
  setOfflineQueueOwner(null)
})

/** User A's session is checked, then A, offline, favourites and deletes a link. */
async function queueWritesOfUserA(client: ReturnType<typeof createApiClient>) {
  expect((await getSession(client))?.id).toBe(userA)
  online = false
  await client.send('/api/links/a-1', { method: 'PUT', body: { favorite: true }, queueWhenOffline: true })
  await client.send('/api/links/a-2', { method: 'DELETE', queueWhenOffline: true })
  expect(listOfflineRequests()).toHaveLength(2)
  online = true
}

const linkWrites = () =>
  server.requests.filter((request) => request.path.startsWith('/api/links')).map((request) => request.path)

describe('the session and the offline queue', () => {
  it("drops user A's queued writes when user B signs in with a wallet here, so B's session never sends them", async () => {
    const client = createApiClient()
    await queueWritesOfUserA(client)

    await signInWithWallet(privateKeyToAccount(generatePrivateKey()), { client, origin: server.origin })

    expect(listOfflineRequests()).toEqual([])
    expect(await client.replayOfflineQueue()).toEqual({ replayed: [], failed: [] })
    expect(linkWrites()).toEqual([])
  })

  it('keeps them when the same user signs in again, and replays them then', async () => {
    const client = createApiClient()
    await queueWritesOfUserA(client)
    loginUser = userA

    await signInWithWallet(privateKeyToAccount(generatePrivateKey()), { client, origin: server.origin })

    expect((await client.replayOfflineQueue()).replayed).toHaveLength(2)
    expect(linkWrites()).toEqual(['/api/links/a-1', '/api/links/a-2'])
  })

  it('drops them at logout, before anyone else can sign in', async () => {
    const client = createApiClient()
    await queueWritesOfUserA(client)

    await logout(client)

    expect(listOfflineRequests()).toEqual([])
    expect(linkWrites()).toEqual([])
  })
})
