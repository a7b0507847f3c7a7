import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { signInTestUser, type TestCaller } from '../../../test/link-test-fixtures.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

describe('/api/users/notices', () => {
  let testApp: TestApp
  let first: TestCaller
  let second: TestCaller

  beforeAll(async () => {
    testApp = await buildTestApp()
    first = await signInTestUser(testApp)
    second = await signInTestUser(testApp)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const read = async (caller: TestCaller) => {
    const response = await caller.request({ method: 'GET', url: '/api/users/notices' })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  it('the digest is off by default; a user turns it on and off, and only their own', async () => {
    expect(await read(first)).toEqual({ data: { paymentDigest: 'off' } })
    const on = await first.request({
      method: 'PUT',
      url: '/api/users/notices',
      payload: { paymentDigest: 'daily' },
    })
    expect(on.statusCode, on.body).toBe(200)
    expect(on.json()).toEqual({ data: { paymentDigest: 'daily' } })
    expect(await read(first)).toEqual({ data: { paymentDigest: 'daily' } })
    // The other user's setting did not move.
    expect(await read(second)).toEqual({ data: { paymentDigest: 'off' } })

    const off = await first.request({
      method: 'PUT',
      url: '/api/users/notices',
      payload: { paymentDigest: 'off' },
    })
    expect(off.json()).toEqual({ data: { paymentDigest: 'off' } })
    expect(await read(first)).toEqual({ data: { paymentDigest: 'off' } })
  })

  it('an unknown or missing value is 422 naming paymentDigest, and changes nothing', async () => {
    for (const payload of [{ paymentDigest: 'weekly' }, { paymentDigest: true }, {}]) {
      const response = await second.request({ method: 'PUT', url: '/api/users/notices', payload })
      expect(response.statusCode, JSON.stringify(payload)).toBe(422)
      expect(response.json().error.field).toBe('paymentDigest')
    }
    const weekly = await second.request({
      method: 'PUT',
      url: '/api/users/notices',
      payload: { paymentDigest: 'weekly' },
    })
    expect(weekly.json().error.message).toContain("must be 'off' or 'daily'")
    expect(await read(second)).toEqual({ data: { paymentDigest: 'off' } })
  })

  it('needs a session (401) and, to change, the CSRF header (403); an API key is refused (403)', async () => {
    const anonymous = await testApp.app.inject({
      method: 'PUT',
      url: '/api/users/notices',
      payload: { paymentDigest: 'daily' },
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
    })
    expect(anonymous.statusCode).toBe(401)
    expect((await testApp.app.inject({ method: 'GET', url: '/api/users/notices' })).statusCode).toBe(401)

    const noHeader = await second.request({
      method: 'PUT',
      url: '/api/users/notices',
      payload: { paymentDigest: 'daily' },
      headers: { 'x-csrf-token': '' },
    })
    expect(noHeader.statusCode).toBe(403)
    expect(await read(second)).toEqual({ data: { paymentDigest: 'off' } })

    const made = await second.request({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Shop server', scopes: ['links:read', 'links:write', 'payments:read'] },
    })
    expect(made.statusCode, made.body).toBe(201)
    const key = made.json().data.key as string
    for (const method of ['GET', 'PUT'] as const) {
      const withKey = await testApp.app.inject({
        method,
        url: '/api/users/notices',
        headers: { authorization: `Bearer ${key}` },
        ...(method === 'PUT' ? { payload: { paymentDigest: 'daily' } } : {}),
      })
      expect(withKey.statusCode, method).toBe(403)
    }
    expect(await read(second)).toEqual({ data: { paymentDigest: 'off' } })
  })
})
