import type { ApiKeyScope } from '@quicklinks/core/api/api-keys'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  buildLinkBody,
  signInTestUser,
  type TestCaller,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'
import { apiKeys } from '../../db/schema.ts'

/**
 * API keys (docs/api.md#api-keys) as a merchant's server and an attacker use them: Bearer keys on
 * the routes of their scopes without CSRF, nothing else; made and revoked only by a session.
 */
describe('/api/api-keys and Bearer API keys', () => {
  let testApp: TestApp
  let owner: TestCaller
  let stranger: TestCaller
  let aliasCounter = 0

  beforeAll(async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    owner = await signInTestUser(testApp)
    stranger = await signInTestUser(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function makeKey(caller: TestCaller, scopes: ApiKeyScope[], name = 'Shop server') {
    const response = await caller.request({ method: 'POST', url: '/api/api-keys', payload: { name, scopes } })
    expect(response.statusCode, response.body).toBe(201)
    return response.json().data as { id: string; key: string; prefix: string; scopes: string[] }
  }

  /** A request as a server sends it: the key, no cookie, no CSRF header. */
  function withKey(key: string, options: { method: string; url: string; payload?: unknown }) {
    return testApp.app.inject({
      method: options.method as 'GET',
      url: options.url,
      headers: { authorization: `Bearer ${key}` },
      ...(options.payload === undefined ? {} : { payload: options.payload as Record<string, unknown> }),
    })
  }

  const linkBody = () => buildLinkBody({ alias: `Key link ${Date.now().toString(36)} ${++aliasCounter}` })

  it('shows the key once, lists it by prefix with its scopes, and never answers the key again', async () => {
    const made = await makeKey(owner, ['links:read', 'links:read'])
    expect(made.key).toMatch(/^qlk_[A-Za-z0-9_-]{43}$/)
    expect(made.prefix).toBe(made.key.slice(0, 8))
    expect(made.scopes).toEqual(['links:read'])
    const list = await owner.request({ method: 'GET', url: '/api/api-keys' })
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(made.key)
    expect(list.json().data).toContainEqual(
      expect.objectContaining({ id: made.id, name: 'Shop server', prefix: made.prefix, revokedAt: null }),
    )
    // The stored row holds the hash only.
    const rows = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, made.id))
    expect(rows[0]?.secretHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(rows)).not.toContain(made.key)
  })

  it('reads and writes links with the scopes it has, without CSRF, and is refused the scopes it lacks', async () => {
    const reader = await makeKey(owner, ['links:read', 'payments:read'])
    const writer = await makeKey(owner, ['links:write'])
    const created = await withKey(writer.key, { method: 'POST', url: '/api/links', payload: linkBody() })
    expect(created.statusCode, created.body).toBe(201)
    const linkId = (created.json().data as { id: string }).id

    const read = await withKey(reader.key, { method: 'GET', url: '/api/links' })
    expect(read.statusCode, read.body).toBe(200)
    expect((read.json().data as { id: string }[]).map((link) => link.id)).toContain(linkId)

    const refusedWrite = await withKey(reader.key, { method: 'POST', url: '/api/links', payload: linkBody() })
    expect(refusedWrite.statusCode).toBe(403)
    expect(refusedWrite.json().error.message).toContain('links:write')
    const refusedDelete = await withKey(reader.key, { method: 'DELETE', url: `/api/links/${linkId}` })
    expect(refusedDelete.statusCode).toBe(403)
    const stillThere = await owner.request({ method: 'GET', url: `/api/links/${linkId}` })
    expect(stillThere.statusCode).toBe(200)
  })

  it('cannot reach routes that name no scopes: no key makes keys, reads the user or signs out', async () => {
    const key = (await makeKey(owner, ['links:read', 'links:write', 'payments:read', 'webhooks:write'])).key
    for (const [method, url, payload] of [
      ['POST', '/api/api-keys', { name: 'Escalated', scopes: ['links:write'] }],
      ['GET', '/api/api-keys', undefined],
      ['GET', '/api/auth/me', undefined],
      ['POST', '/api/auth/logout', {}],
    ] as const) {
      const response = await withKey(key, { method, url, payload })
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403)
      expect(response.json().error.message).toContain('does not accept API keys')
    }
  })

  it('answers 401 to a malformed, unknown or revoked key, and a key never falls back to the cookie', async () => {
    const made = await makeKey(owner, ['links:read'])
    for (const key of ['qlk_short', `qlk_${'A'.repeat(43)}`]) {
      const response = await withKey(key, { method: 'GET', url: '/api/links' })
      expect(response.statusCode).toBe(401)
      expect(response.headers['www-authenticate']).toBe('Bearer')
    }
    // A bad key beside a live session cookie is still a bad key.
    const withCookie = await owner.request({
      method: 'GET',
      url: '/api/links',
      headers: { authorization: `Bearer qlk_${'B'.repeat(43)}` },
    })
    expect(withCookie.statusCode).toBe(401)

    const revoked = await owner.request({ method: 'DELETE', url: `/api/api-keys/${made.id}` })
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(revoked.json().data.revokedAt).toEqual(expect.any(String))
    const afterRevoke = await withKey(made.key, { method: 'GET', url: '/api/links' })
    expect(afterRevoke.statusCode).toBe(401)
  })

  it("lets no one revoke or see another user's key", async () => {
    const made = await makeKey(owner, ['links:read'])
    const foreign = await stranger.request({ method: 'DELETE', url: `/api/api-keys/${made.id}` })
    expect(foreign.statusCode).toBe(404)
    const strangersList = await stranger.request({ method: 'GET', url: '/api/api-keys' })
    expect((strangersList.json().data as { id: string }[]).map((key) => key.id)).not.toContain(made.id)
    const stillWorks = await withKey(made.key, { method: 'GET', url: '/api/links' })
    expect(stillWorks.statusCode).toBe(200)
  })

  it('needs the CSRF token to make or revoke a key with the session cookie', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      cookies: { ql_session: owner.sessionToken },
      payload: { name: 'Cross-site', scopes: ['links:read'] },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('CSRF_INVALID')
    // Another scheme (a proxy's Basic auth) is not an API key: the cookie's write still needs the token.
    const basic = await testApp.app.inject({
      method: 'POST',
      url: '/api/links',
      cookies: { ql_session: owner.sessionToken },
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
      payload: linkBody(),
    })
    expect(basic.statusCode).toBe(403)
    expect(basic.json().error.code).toBe('CSRF_INVALID')
  })

  it('refuses bad names and scopes with the field named', async () => {
    for (const payload of [
      { name: '', scopes: ['links:read'] },
      { name: 'Shop', scopes: [] },
      { name: 'Shop', scopes: ['admin'] },
    ]) {
      const response = await owner.request({ method: 'POST', url: '/api/api-keys', payload })
      expect(response.statusCode, response.body).toBe(422)
    }
  })
})

describe('a revoked API key on another instance', () => {
  it('is refused at once by every instance sharing the database', async () => {
    const first = await buildTestApp()
    const second = await buildTestApp({}, { database: first.database })
    try {
      const owner = await signInTestUser(first)
      const made = await owner.request({
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Two instances', scopes: ['links:read'] },
      })
      const { id, key } = made.json().data as { id: string; key: string }
      const read = () =>
        second.app.inject({ method: 'GET', url: '/api/links', headers: { authorization: `Bearer ${key}` } })
      expect((await read()).statusCode).toBe(200)
      const revoked = await owner.request({ method: 'DELETE', url: `/api/api-keys/${id}` })
      expect(revoked.statusCode).toBe(200)
      expect((await read()).statusCode).toBe(401)
    } finally {
      await second.app.close()
      await first.close()
    }
  })
})

describe('an API key’s own rate limit', () => {
  it('counts a key’s requests from every address together (RATE_LIMIT_MAX per minute per key)', async () => {
    const testApp = await buildTestApp({ rateLimitMax: 3 })
    try {
      const owner = await signInTestUser(testApp)
      const made = await owner.request({
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Busy server', scopes: ['links:read'] },
        remoteAddress: '10.1.0.1',
      })
      const { key } = made.json().data as { key: string }
      const statuses: number[] = []
      // Four servers, one request each: no address passes its own limit, the key passes its.
      for (const remoteAddress of ['10.2.0.1', '10.2.0.2', '10.2.0.3', '10.2.0.4']) {
        const response = await testApp.app.inject({
          method: 'GET',
          url: '/api/links',
          headers: { authorization: `Bearer ${key}` },
          remoteAddress,
        })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([200, 200, 200, 429])
    } finally {
      await testApp.close()
    }
  })
})

describe('API keys on the invoice and payment routes', () => {
  it('lets invoices:write make an invoice and payments:read read payments, and neither do the other', async () => {
    const testApp = await buildTestApp()
    writeTestDeployment(testApp)
    try {
      const owner = await signInTestUser(testApp)
      const link = await owner.request({
        method: 'POST',
        url: '/api/links',
        payload: buildLinkBody({ alias: `Keyed invoices ${Date.now().toString(36)}` }),
      })
      const linkId = (link.json().data as { id: string }).id
      const make = async (scopes: string[]) => {
        const made = await owner.request({
          method: 'POST',
          url: '/api/api-keys',
          payload: { name: 'Shop', scopes },
        })
        return (made.json().data as { key: string }).key
      }
      const invoicer = await make(['invoices:write'])
      const reader = await make(['payments:read'])
      const send = (key: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
        testApp.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${key}` },
          ...(payload === undefined ? {} : { payload }),
        })

      const invoice = await send(invoicer, 'POST', `/api/links/${linkId}/invoices`, { amount: '12.5' })
      expect(invoice.statusCode, invoice.body).toBe(201)
      expect((await send(reader, 'POST', `/api/links/${linkId}/invoices`, { amount: '1' })).statusCode).toBe(
        403,
      )
      expect((await send(reader, 'GET', '/api/payments')).statusCode).toBe(200)
      expect((await send(reader, 'GET', '/api/payments/export.csv')).statusCode).toBe(200)
      expect((await send(reader, 'GET', '/api/invoices')).statusCode).toBe(200)
      expect((await send(invoicer, 'GET', '/api/payments')).statusCode).toBe(403)
    } finally {
      await testApp.close()
    }
  })
})
