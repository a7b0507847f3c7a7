import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'

// The app server's wiring of the runtime's one error handler: its JSON 404s, its request ids and
// log redaction, its zod validator and JSON parser. Every case of the handler itself is in
// packages/runtime/src/plugins/error-handler-plugin.test.ts, on a bare host.

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const withCsrf = { cookies: { csrf_token: csrf }, headers: { 'x-csrf-token': csrf } }

// Routes that exist only in this test app.
const testRoutes: FastifyPluginAsyncZod = async (app) => {
  // GET /api/test/crash: fails like a bug would, with secrets in its message.
  app.get('/test/crash', async () => {
    throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432')
  })
  // POST /api/test/echo: validates a body with zod.
  app.post(
    '/test/echo',
    { schema: { body: z.object({ email: z.email(), profile: z.object({ age: z.number().int() }) }) } },
    async (request) => ({ data: request.body }),
  )
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

  it('answers through its zod validator and JSON parser in the error model: 422 naming the field, 400 for a body that is not JSON', async () => {
    const invalid = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.io', profile: { age: 'old' } },
      ...withCsrf,
    })
    expect(invalid.statusCode).toBe(422)
    expect(invalid.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'profile.age' })

    const notJson = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: '{"email":',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      cookies: { csrf_token: csrf },
    })
    expect(notJson.statusCode).toBe(400)
    expect(notJson.json().error.code).toBe('BAD_REQUEST')
  })
})
