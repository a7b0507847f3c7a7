import { createLogger } from '@quicklinks/runtime/create-logger'
import type { DatabaseClient } from '@quicklinks/runtime/db/create-database-client'
import { createTestDatabase } from '@quicklinks/runtime/test/pglite-template'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSignerTestConfig } from '../test/create-signer-test-config.ts'
import { buildSignerApp } from './build-signer-app.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'

describe('the standalone signer app', () => {
  let app: FastifyInstance
  let database: DatabaseClient
  const sent: { to: string; subject: string }[] = []
  beforeAll(async () => {
    database = await createTestDatabase()
    // An RPC that cannot answer, as a config holding the server's sections would carry it: the
    // signer's readiness does not depend on chains.
    const config = Object.assign(createSignerTestConfig(), { rpcUrls: { 8453: 'http://127.0.0.1:9' } })
    app = await buildSignerApp(config, {
      database,
      logger: createLogger('silent'),
      delivery: {
        sendEmail: async (message) => {
          sent.push(message)
        },
        sendSms: async () => {},
      },
    })
  })
  afterAll(async () => {
    await app.close()
    await database.close()
  })

  it('serves the signer routes at /signer/v1 and the CSRF cookie at /health, behind the same CSRF check', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
    const config = await app.inject({
      method: 'POST',
      url: '/signer/v1/signer-config',
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
      payload: {},
    })
    expect(config.statusCode).toBe(200)
    expect(config.json().exportSignerPublicKey).toMatch(/^04[0-9a-f]{128}$/)
    const auth = await app.inject({
      method: 'POST',
      url: '/signer/v1/auth',
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
      payload: { email: 'solo@example.com' },
    })
    expect(auth.statusCode).toBe(200)
    expect(sent.at(-1)).toMatchObject({ to: 'solo@example.com', subject: 'Your Quick Links sign-in code' })
    const unguarded = await app.inject({ method: 'POST', url: '/signer/v1/signer-config', payload: {} })
    expect(unguarded.statusCode).toBe(403)
  })

  it('answers /ready from the database alone, never rate limited', async () => {
    const config = { rateLimitMax: 1 }
    const limited = await buildSignerApp(createSignerTestConfig(config), {
      database,
      logger: createLogger('silent'),
    })
    try {
      for (let i = 0; i < 3; i++) {
        const ready = await limited.inject({ method: 'GET', url: '/ready', remoteAddress: '192.0.2.8' })
        expect(ready.statusCode).toBe(200)
        expect(ready.json()).toEqual({
          status: 'ready',
          checks: { database: { status: 'ok', ms: expect.any(Number) } },
        })
        expect(
          (await limited.inject({ method: 'GET', url: '/health', remoteAddress: '192.0.2.8' })).statusCode,
        ).toBe(200)
      }
      const signer = await limited.inject({
        method: 'GET',
        url: '/signer/v1/nothing',
        remoteAddress: '192.0.2.8',
      })
      const again = await limited.inject({
        method: 'GET',
        url: '/signer/v1/nothing',
        remoteAddress: '192.0.2.8',
      })
      expect([signer.statusCode, again.statusCode]).toEqual([404, 429])
    } finally {
      await limited.close()
    }
  })

  it('serves nothing of the app server', async () => {
    const me = await app.inject({ method: 'GET', url: '/api/auth/me' })
    expect(me.statusCode).toBe(404)
    expect(me.json().error.code).toBe('NOT_FOUND')
  })
})
