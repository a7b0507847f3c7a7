import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'

const token = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

describe('CSRF protection', () => {
  // The app server's wiring of the runtime's check (every case of the check itself is in
  // packages/runtime/src/plugins/csrf-plugin.test.ts). The checks are stateless, so one app serves every case.
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await buildTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('refuses a write without the header with 403 CSRF_INVALID', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { csrf_token: token },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({
      error: { code: 'CSRF_INVALID', message: expect.any(String) },
    })
  })

  it('lets a write with the matching token through to the route', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { csrf_token: token },
      headers: { 'x-csrf-token': token },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: { ok: true } })
  })

  it('guards unknown routes too: 403 without the token, 404 with it', async () => {
    const refused = await testApp.app.inject({ method: 'PUT', url: '/api/nothing-here' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe('CSRF_INVALID')
    const outside = await testApp.app.inject({ method: 'POST', url: '/not-an-api-path' })
    expect(outside.statusCode).toBe(403)

    const passed = await testApp.app.inject({
      method: 'PUT',
      url: '/api/nothing-here',
      cookies: { csrf_token: token },
      headers: { 'x-csrf-token': token },
    })
    expect(passed.statusCode).toBe(404)
    expect(passed.json().error.code).toBe('NOT_FOUND')
  })
})
