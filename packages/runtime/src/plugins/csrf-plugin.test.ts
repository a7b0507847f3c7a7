import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { csrfCookieName, csrfPlugin, ensureCsrfCookie } from './csrf-plugin.ts'
import { errorHandlerPlugin } from './error-handler-plugin.ts'

// The double-submit check on a bare host with the one error handler: what every server process
// that registers it gets (the app server's own wiring is in apps/server's http-conventions tests).

const token = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

describe('CSRF protection', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = Fastify()
    await app.register(errorHandlerPlugin)
    await app.register(csrfPlugin)
    app.post('/api/write', async () => ({ data: { ok: true } }))
    app.post('/api/stamped', { config: { isCsrfExempt: true } }, async () => ({ data: { stamped: true } }))
    app.get('/api/read', async () => ({ data: { read: true } }))
    app.get('/health', async (request, reply) => {
      ensureCsrfCookie(request, reply, request.headers['x-secure'] === 'yes')
      return { ok: true }
    })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
  })

  it('refuses a write without the header with 403 CSRF_INVALID', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/write', cookies: { csrf_token: token } })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: { code: 'CSRF_INVALID', message: expect.any(String) } })
  })

  it('refuses a header that differs from the cookie, and a header without the cookie', async () => {
    const differs = await app.inject({
      method: 'POST',
      url: '/api/write',
      cookies: { csrf_token: token },
      headers: { 'x-csrf-token': `${token.slice(0, -1)}B` },
    })
    expect(differs.statusCode).toBe(403)
    const alone = await app.inject({
      method: 'DELETE',
      url: '/api/write',
      headers: { 'x-csrf-token': token },
    })
    expect(alone.statusCode).toBe(403)
    expect(alone.json().error.code).toBe('CSRF_INVALID')
    // A short cookie is not one of ours, even when the header repeats it.
    const short = await app.inject({
      method: 'POST',
      url: '/api/write',
      cookies: { csrf_token: 'abc' },
      headers: { 'x-csrf-token': 'abc' },
    })
    expect(short.statusCode).toBe(403)
  })

  it('lets a write with the matching token through, and guards unknown routes too', async () => {
    const passed = await app.inject({
      method: 'POST',
      url: '/api/write',
      cookies: { csrf_token: token },
      headers: { 'x-csrf-token': token },
    })
    expect(passed.json()).toEqual({ data: { ok: true } })
    const unknown = await app.inject({ method: 'PUT', url: '/api/nothing-here' })
    expect(unknown.statusCode).toBe(403)
    const unknownWithToken = await app.inject({
      method: 'PUT',
      url: '/api/nothing-here',
      cookies: { csrf_token: token },
      headers: { 'x-csrf-token': token },
    })
    expect(unknownWithToken.statusCode).toBe(404)
  })

  it('lets safe methods and stamped (exempt) routes through without a token', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      const response = await app.inject({ method, url: '/api/read' })
      expect(response.statusCode, method).not.toBe(403)
    }
    const stamped = await app.inject({ method: 'POST', url: '/api/stamped' })
    expect(stamped.json()).toEqual({ data: { stamped: true } })
  })

  it('hands out a cookie once (Secure on https) and keeps a well-formed one', async () => {
    const fresh = await app.inject({ method: 'GET', url: '/health', headers: { 'x-secure': 'yes' } })
    const cookie = String(fresh.headers['set-cookie'])
    expect(cookie).toMatch(new RegExp(`^${csrfCookieName}=[A-Za-z0-9_-]{43}; Path=/; SameSite=Lax; Secure$`))
    const plain = await app.inject({ method: 'GET', url: '/health' })
    expect(String(plain.headers['set-cookie'])).not.toContain('Secure')
    const kept = await app.inject({ method: 'GET', url: '/health', cookies: { csrf_token: token } })
    expect(kept.headers['set-cookie']).toBeUndefined()
    const replaced = await app.inject({ method: 'GET', url: '/health', cookies: { csrf_token: 'abc' } })
    expect(String(replaced.headers['set-cookie'])).toMatch(/^csrf_token=/)
  })
})

describe('CSRF protection with an exemption for requests that carry no cookie credentials', () => {
  it('skips only the requests `isExempt` names, and checks every other write', async () => {
    const app = Fastify()
    await app.register(errorHandlerPlugin)
    await app.register(csrfPlugin, { isExempt: (request) => request.headers['x-keyed'] === 'yes' })
    app.post('/api/write', async () => ({ data: { ok: true } }))
    await app.ready()
    try {
      const exempt = await app.inject({ method: 'POST', url: '/api/write', headers: { 'x-keyed': 'yes' } })
      expect(exempt.json()).toEqual({ data: { ok: true } })
      const other = await app.inject({ method: 'POST', url: '/api/write', headers: { 'x-keyed': 'no' } })
      expect(other.statusCode).toBe(403)
      expect(other.json().error.code).toBe('CSRF_INVALID')
    } finally {
      await app.close()
    }
  })
})
