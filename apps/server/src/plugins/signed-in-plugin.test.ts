import { errorHandlerPlugin } from '@quicklinks/runtime/plugins/error-handler-plugin'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { afterEach, describe, expect, it } from 'vitest'
import type { User } from '../db/schema.ts'
import { signedInPlugin } from './signed-in-plugin.ts'

const alice: User = {
  id: '00000000-0000-4000-8000-000000000001',
  address: `0x${'a'.repeat(40)}`,
  email: null,
  username: 'alice',
  paymentDigest: 'off',
  createdAt: new Date(0),
  updatedAt: new Date(0),
}

// Stands in for the session plugin: the `x-test-user` header signs the request in as alice.
const testSessionPlugin = fp<Record<never, never>>(
  async (app) => {
    app.decorateRequest('user', null)
    app.addHook('onRequest', (request, _reply, done) => {
      request.user = request.headers['x-test-user'] === 'alice' ? alice : null
      done()
    })
  },
  { name: 'session' },
)

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
})

/** An app with one signed-in route and one public one; `handled` lists the handlers that ran. */
async function buildScopedApp(handled: string[]): Promise<FastifyInstance> {
  const scoped = Fastify()
  await scoped.register(errorHandlerPlugin)
  await scoped.register(testSessionPlugin)
  const signedInRoutes: FastifyPluginAsync = async (signedIn) => {
    await signedIn.register(signedInPlugin)
    signedIn.get('/private', async (request) => {
      handled.push('private')
      return { username: request.signedInUser.username }
    })
  }
  await scoped.register(signedInRoutes)
  scoped.get('/public', async (request) => {
    handled.push('public')
    return { isSignedIn: request.user !== null }
  })
  return scoped
}

describe('signed-in scope', () => {
  it('answers 401 UNAUTHORIZED to a signed-out request before the handler runs', async () => {
    const handled: string[] = []
    app = await buildScopedApp(handled)
    const response = await app.inject({ method: 'GET', url: '/private' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' },
    })
    expect(handled).toEqual([])
  })

  it("hands a signed-in request's user to the handler", async () => {
    const handled: string[] = []
    app = await buildScopedApp(handled)
    const response = await app.inject({ method: 'GET', url: '/private', headers: { 'x-test-user': 'alice' } })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ username: 'alice' })
    expect(handled).toEqual(['private'])
  })

  it('leaves routes outside the scope public', async () => {
    const handled: string[] = []
    app = await buildScopedApp(handled)
    const response = await app.inject({ method: 'GET', url: '/public' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ isSignedIn: false })
    expect(handled).toEqual(['public'])
  })
})
