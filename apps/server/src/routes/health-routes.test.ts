import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, getSetCookie, type TestApp } from '../../test/build-test-app.ts'

describe('GET /health', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('answers ok and sets a random csrf_token cookie readable by the page', async () => {
    testApp = await buildTestApp()
    const response = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
    const cookie = getSetCookie(response, 'csrf_token')
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' })
    expect(cookie?.httpOnly).toBeUndefined()
    expect(cookie?.secure).toBeUndefined()

    const other = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(getSetCookie(other, 'csrf_token')?.value).not.toBe(cookie?.value)
  })

  it('keeps an existing csrf_token cookie', async () => {
    testApp = await buildTestApp()
    const token = 'a'.repeat(43)
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      cookies: { csrf_token: token },
    })
    expect(response.statusCode).toBe(200)
    expect(getSetCookie(response, 'csrf_token')).toBeUndefined()
  })

  it('replaces a malformed csrf_token cookie', async () => {
    testApp = await buildTestApp()
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      cookies: { csrf_token: 'short' },
    })
    expect(getSetCookie(response, 'csrf_token')?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('marks the cookie Secure when the public origin is https', async () => {
    testApp = await buildTestApp({ publicOrigin: 'https://pay.example.com' })
    const response = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(getSetCookie(response, 'csrf_token')?.secure).toBe(true)
  })

  it('echoes a plain incoming x-request-id and replaces one that could forge log lines', async () => {
    testApp = await buildTestApp()
    const kept = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'lb-123.abc' },
    })
    expect(kept.headers['x-request-id']).toBe('lb-123.abc')
    expect(testApp.logs.some((line) => line.reqId === 'lb-123.abc' && line.msg === 'incoming request')).toBe(
      true,
    )

    const replaced = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'x\n{"level":60}' },
    })
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})
