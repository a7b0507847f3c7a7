import { AppError } from '@quicklinks/core/app-error'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const withCsrf = { cookies: { csrf_token: csrf }, headers: { 'x-csrf-token': csrf } }

// Routes that exist only in this test app.
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  // GET /api/test/crash: fails like a bug would, with secrets in its message.
  app.get('/test/crash', async () => {
    throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432')
  })
  // GET /api/test/conflict: a deliberate AppError with a safe user message.
  app.get('/test/conflict', async () => {
    throw new AppError('CONFLICT', {
      message: 'slug taken (internal)',
      userMessage: 'That slug is taken.',
      field: 'alias_slug',
      details: { suggestion: 'coffee-2' },
    })
  })
  // POST /api/test/echo: validates a body with zod.
  app.post(
    '/test/echo',
    { schema: { body: z.object({ email: z.email(), profile: z.object({ age: z.number().int() }) }) } },
    async (request) => ({ data: request.body }),
  )
  // GET /api/test/service-validation: a service rejecting client input.
  app.get('/test/service-validation', async () =>
    parseInputOrThrow(z.object({ amount: z.string().regex(/^\d+$/) }), { amount: 'x' }),
  )
  // GET /api/test/upstream-shape: a service whose upstream answered something unexpected.
  app.get('/test/upstream-shape', async () => z.object({ quoteId: z.string() }).parse({ quoteId: 42 }))
}

describe('error handling', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await buildTestApp({}, { extraApiRoutes: testRoutes })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers unknown /api, /signer and /health routes with a JSON 404', async () => {
    for (const url of ['/api/nope', '/api', '/signer/v1/nope', '/health/deep']) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })
      expect(response.statusCode, url).toBe(404)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      expect(response.json(), url).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } })
    }
  })

  it('hides an unexpected error behind a generic 500 and logs it with the request id', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/test/crash',
      headers: { 'x-request-id': 'crash-1', authorization: 'Bearer top-secret-token', 'x-csrf-token': csrf },
      cookies: { ql_session: 'session-cookie-secret', csrf_token: csrf },
    })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Try again.' },
    })
    expect(response.body).not.toMatch(/hunter2|ECONNREFUSED|stack|at .*\.ts/)

    const logged = testApp.logs.find((line) => line.reqId === 'crash-1' && line.level === 50)
    expect(logged).toBeDefined()
    expect(JSON.stringify(logged)).toMatch(/ECONNREFUSED/)
    // The secrets in headers never reach the log.
    const allLogs = JSON.stringify(testApp.logs)
    expect(allLogs).not.toMatch(/top-secret-token|session-cookie-secret/)
    expect(allLogs).not.toContain(csrf)
    expect(logged?.headers).toMatchObject({ cookie: '[Redacted]', authorization: '[Redacted]' })
  })

  it('answers an AppError with its status and safe body, never its internal message', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/conflict' })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      error: {
        code: 'CONFLICT',
        message: 'That slug is taken.',
        field: 'alias_slug',
        details: { suggestion: 'coffee-2' },
      },
    })
  })

  it('names the invalid field of a request body', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'not-an-email', profile: { age: 3 } },
      ...withCsrf,
    })
    expect(response.statusCode).toBe(422)
    const { error } = response.json()
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.field).toBe('email')
    expect(error.message).toMatch(/^email: /)

    const nested = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.io', profile: { age: 'old' } },
      ...withCsrf,
    })
    expect(nested.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'profile.age' })

    const valid = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.io', profile: { age: 3 } },
      ...withCsrf,
    })
    expect(valid.statusCode).toBe(200)
  })

  it('names the field when a service rejects client input, but hides a bad upstream shape', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/service-validation' })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'amount',
      message: /^amount: /,
    })

    const upstream = await testApp.app.inject({ method: 'GET', url: '/api/test/upstream-shape' })
    expect(upstream.statusCode).toBe(500)
    expect(upstream.body).not.toContain('quoteId')
  })

  it('answers a body that is not JSON with 400 BAD_REQUEST', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: '{"email":',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      cookies: { csrf_token: csrf },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe('BAD_REQUEST')
  })

  it('answers an unsupported content type with 415', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
      cookies: { csrf_token: csrf },
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })
})
