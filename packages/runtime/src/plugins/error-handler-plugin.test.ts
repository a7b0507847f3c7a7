import { AppError } from '@quicklinks/core/app-error'
import { parseInputOrThrow } from '@quicklinks/core/parse-input-or-throw'
import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMemoryLogger } from '../../test/create-memory-logger.ts'
import { errorHandlerPlugin } from './error-handler-plugin.ts'

// The one error handler on a bare host with the runtime's logger: what every server process that
// registers it gets (the app server's wiring, its JSON 404s and its request ids, is in apps/server's
// error-handler tests).

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

describe('error handling', () => {
  let app: FastifyInstance
  const logs: Record<string, unknown>[] = []
  beforeAll(async () => {
    app = Fastify({
      loggerInstance: createMemoryLogger(logs),
      requestIdHeader: 'x-request-id',
    })
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    await app.register(errorHandlerPlugin)
    // GET /crash: fails like a bug would, with secrets in its message.
    app.get('/crash', async () => {
      throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432')
    })
    // GET /conflict: a deliberate AppError with a safe user message.
    app.get('/conflict', async () => {
      throw new AppError('CONFLICT', {
        message: 'slug taken (internal)',
        userMessage: 'That slug is taken.',
        field: 'alias_slug',
        details: { suggestion: 'coffee-2' },
      })
    })
    // POST /echo: validates a body with zod.
    app.post(
      '/echo',
      { schema: { body: z.object({ email: z.email(), profile: z.object({ age: z.number().int() }) }) } },
      async (request) => ({ data: request.body }),
    )
    // GET /service-validation: a service rejecting client input.
    app.get('/service-validation', async () =>
      parseInputOrThrow(z.object({ amount: z.string().regex(/^\d+$/) }), { amount: 'x' }),
    )
    // GET /upstream-shape: a service whose upstream answered something unexpected.
    app.get('/upstream-shape', async () => z.object({ quoteId: z.string() }).parse({ quoteId: 42 }))
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
  })

  it('hides an unexpected error behind a generic 500 and logs it with the request id', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/crash',
      headers: { 'x-request-id': 'crash-1', authorization: 'Bearer top-secret-token', 'x-csrf-token': csrf },
      cookies: { ql_session: 'session-cookie-secret', csrf_token: csrf },
    })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Try again.' },
    })
    expect(response.body).not.toMatch(/hunter2|ECONNREFUSED|stack|at .*\.ts/)

    const logged = logs.find((line) => line.reqId === 'crash-1' && line.level === 50)
    expect(logged).toBeDefined()
    expect(JSON.stringify(logged)).toMatch(/ECONNREFUSED/)
    // The secrets in headers never reach the log.
    const allLogs = JSON.stringify(logs)
    expect(allLogs).not.toMatch(/top-secret-token|session-cookie-secret/)
    expect(allLogs).not.toContain(csrf)
    expect(logged?.headers).toMatchObject({ cookie: '[Redacted]', authorization: '[Redacted]' })
  })

  it('answers an AppError with its status and safe body, never its internal message', async () => {
    const response = await app.inject({ method: 'GET', url: '/conflict' })
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
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { email: 'not-an-email', profile: { age: 3 } },
    })
    expect(response.statusCode).toBe(422)
    const { error } = response.json()
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.field).toBe('email')
    expect(error.message).toMatch(/^email: /)

    const nested = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { email: 'a@b.io', profile: { age: 'old' } },
    })
    expect(nested.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'profile.age' })

    const valid = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { email: 'a@b.io', profile: { age: 3 } },
    })
    expect(valid.statusCode).toBe(200)
  })

  it('names the field when a service rejects client input, but hides a bad upstream shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/service-validation' })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'amount',
      message: /^amount: /,
    })

    const upstream = await app.inject({ method: 'GET', url: '/upstream-shape' })
    expect(upstream.statusCode).toBe(500)
    expect(upstream.body).not.toContain('quoteId')
  })

  it('answers a body that is not JSON with 400 BAD_REQUEST', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe('BAD_REQUEST')
  })

  it('answers an unsupported content type with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })
})
