import { AppError } from '@quicklinks/core/app-error'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  clearCookies,
  type RecordedRequest,
  sendJson,
  setPageCookie,
  setPageUrl,
  startTestServer,
  type TestServer,
} from '../../test/test-server'
import { createApiClient } from './api-client'

let server: TestServer

/** A server that hands out `fresh-1`, `fresh-2`, … on /health and checks the header on writes. */
function csrfServer(options: { alwaysForbid?: boolean; current?: string } = {}) {
  let issued = 0
  let current = options.current
  return (request: RecordedRequest, response: Parameters<Parameters<TestServer['handle']>[0]>[1]) => {
    if (request.path === '/health') {
      issued += 1
      current = `fresh-${issued}`
      sendJson(response, 200, { ok: true }, { 'Set-Cookie': `csrf_token=${current}; Path=/; SameSite=Lax` })
      return
    }
    const write = !['GET', 'HEAD', 'OPTIONS'].includes(request.method)
    if (write && (options.alwaysForbid === true || request.headers['x-csrf-token'] !== current)) {
      sendJson(response, 403, { error: { code: 'CSRF_INVALID', message: 'CSRF token missing or invalid.' } })
      return
    }
    sendJson(response, 200, { data: { method: request.method, path: request.path } })
  }
}

const summary = (requests: RecordedRequest[]) =>
  requests.map((request) => `${request.method} ${request.path} ${request.headers['x-csrf-token'] ?? '-'}`)

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  setPageUrl(`${server.origin}/`)
  clearCookies()
  server.requests.length = 0
  server.handle(csrfServer())
})

describe('api client', () => {
  it('fetches /health for a CSRF cookie before the first write, then sends it as X-CSRF-Token', async () => {
    const client = createApiClient()
    const body = await client.request('/api/links', z.object({ data: z.object({ method: z.string() }) }), {
      method: 'POST',
      body: { alias: 'My Shop' },
    })

    expect(body.data.method).toBe('POST')
    expect(summary(server.requests)).toEqual(['GET /health -', 'POST /api/links fresh-1'])
    const write = server.requests[1]
    expect(write?.headers['content-type']).toBe('application/json')
    expect(write?.headers.accept).toBe('application/json')
    expect(JSON.parse(write?.body ?? '')).toEqual({ alias: 'My Shop' })
  })

  it('sends the token on writes but not on reads, and no JSON content type without a body', async () => {
    setPageCookie('csrf_token', 'known')
    server.handle(csrfServer({ current: 'known' }))
    const client = createApiClient()

    await client.request('/api/links', z.unknown())
    await client.request('/api/links/7', z.unknown(), { method: 'DELETE' })

    expect(summary(server.requests)).toEqual(['GET /api/links -', 'DELETE /api/links/7 known'])
    expect(server.requests[0]?.headers['content-type']).toBeUndefined()
    expect(server.requests[1]?.headers['content-type']).toBeUndefined()
    expect(server.requests[0]?.headers.cookie).toContain('csrf_token=known')
  })

  it('on a 403 refreshes the token from /health and retries exactly once', async () => {
    setPageCookie('csrf_token', 'stale')
    const client = createApiClient()

    const body = await client.request('/api/links/7', z.object({ data: z.object({ path: z.string() }) }), {
      method: 'PUT',
      body: { alias: 'Renamed' },
    })

    expect(body.data.path).toBe('/api/links/7')
    expect(summary(server.requests)).toEqual([
      'PUT /api/links/7 stale',
      'GET /health -',
      'PUT /api/links/7 fresh-1',
    ])
  })

  it('gives up after the second 403 with an AppError', async () => {
    setPageCookie('csrf_token', 'stale')
    server.handle(csrfServer({ alwaysForbid: true }))
    const client = createApiClient()

    const failure = await client
      .request('/api/links', z.unknown(), {
        method: 'POST',
        body: { alias: 'x' },
        fallbackMessage: 'Create failed (403)',
      })
      .catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(AppError)
    expect((failure as AppError).code).toBe('CSRF_INVALID')
    expect((failure as AppError).userMessage).toBe('CSRF token missing or invalid.')
    expect(summary(server.requests)).toEqual([
      'POST /api/links stale',
      'GET /health -',
      'POST /api/links fresh-1',
    ])
  })

  it('turns a failing answer without an error body into an AppError with the fallback message', async () => {
    server.handle((_request, response) => {
      response.writeHead(500)
      response.end()
    })
    const client = createApiClient()

    const failure = await client
      .request('/api/links', z.unknown(), { fallbackMessage: 'Failed to fetch links' })
      .catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(AppError)
    expect((failure as AppError).code).toBe('INTERNAL')
    expect((failure as AppError).userMessage).toBe('Failed to fetch links')
  })

  it('turns an OK answer its schema refuses into an INTERNAL AppError with the fallback message', async () => {
    const client = createApiClient()

    const failure = await client
      .request('/api/links', z.object({ data: z.array(z.string()) }), {
        fallbackMessage: 'Failed to fetch links',
      })
      .catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(AppError)
    expect((failure as AppError).code).toBe('INTERNAL')
    expect((failure as AppError).userMessage).toBe('Failed to fetch links')
  })

  it('rejects a read with a NETWORK AppError when the server cannot be reached', async () => {
    const closed = await startTestServer()
    await closed.close()
    const client = createApiClient({ baseUrl: closed.origin })

    const failure = await client.request('/api/links', z.unknown()).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(AppError)
    expect((failure as AppError).code).toBe('NETWORK')
    expect(localStorage.length).toBe(0)
  })
})
