import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, getSetCookie, type TestApp } from '../../../test/build-test-app.ts'
import { sessions } from '../../db/schema.ts'
import { createSession } from '../../services/sessions/create-session.ts'
import { hashSessionToken } from '../../services/sessions/hash-session-token.ts'
import { getOrCreateUser } from '../../services/users/get-or-create-user.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const address = '0xAbCdEf0123456789abcdef0123456789ABCDEF01'

describe('session routes', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('GET /api/auth/me is 401 UNAUTHORIZED without a session, and with an unknown one', async () => {
    testApp = await buildTestApp()
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/api/auth/me' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' },
    })
    const forged = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      cookies: { ql_session: 'A'.repeat(43) },
    })
    expect(forged.statusCode).toBe(401)
  })

  it('GET /api/auth/me returns the user of a live session', async () => {
    testApp = await buildTestApp()
    const user = await getOrCreateUser(testApp.database.db, { address, email: 'payee@example.com' })
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      cookies: { ql_session: token },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      data: {
        id: user.id,
        address: address.toLowerCase(),
        email: 'payee@example.com',
        username: null,
        createdAt: expect.any(String),
      },
    })
  })

  it('stores only the hash of the session token', async () => {
    testApp = await buildTestApp()
    const user = await getOrCreateUser(testApp.database.db, { address })
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    const rows = await testApp.database.db.select().from(sessions)
    expect(rows.map((row) => row.id)).toEqual([hashSessionToken(token)])
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  it('an expired session is signed out', async () => {
    testApp = await buildTestApp()
    const user = await getOrCreateUser(testApp.database.db, { address })
    const { token } = await createSession(testApp.database.db, {
      userId: user.id,
      now: new Date('2020-01-01'),
    })
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      cookies: { ql_session: token },
    })
    expect(response.statusCode).toBe(401)
  })

  it('POST /api/auth/logout revokes the session and clears the cookie', async () => {
    testApp = await buildTestApp()
    const user = await getOrCreateUser(testApp.database.db, { address })
    const { token } = await createSession(testApp.database.db, { userId: user.id })
    const logout = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { ql_session: token, csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
    })
    expect(logout.statusCode).toBe(200)
    expect(logout.json()).toEqual({ data: { ok: true } })
    const cleared = getSetCookie(logout, 'ql_session')
    expect(cleared?.value).toBe('')
    expect(cleared?.expires).toEqual(new Date(0))

    // The old cookie is dead server-side too, even if a client kept it.
    const after = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      cookies: { ql_session: token },
    })
    expect(after.statusCode).toBe(401)
  })

  it('reply.startSession issues a new HttpOnly session id at every login and revokes the previous one', async () => {
    testApp = await buildTestApp(
      { publicOrigin: 'https://pay.example.com' },
      {
        extraApiRoutes: async (app) => {
          // POST /api/test/login: stands in for issue 3's login, which calls reply.startSession.
          app.post('/test/login', async (_request, reply) => {
            const user = await getOrCreateUser(app.db, { address })
            await reply.startSession(user.id)
            return { data: { ok: true } }
          })
        },
      },
    )
    const app = testApp.app
    const login = (cookies: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/test/login',
        cookies: { ...cookies, csrf_token: csrf },
        headers: { 'x-csrf-token': csrf },
      })
    const first = getSetCookie(await login({}), 'ql_session')
    expect(first).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' })
    const second = getSetCookie(await login({ ql_session: first?.value ?? '' }), 'ql_session')
    expect(second?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(second?.value).not.toBe(first?.value)

    const me = (token: string | undefined) =>
      app.inject({ method: 'GET', url: '/api/auth/me', cookies: { ql_session: token ?? '' } })
    expect((await me(first?.value)).statusCode).toBe(401)
    expect((await me(second?.value)).statusCode).toBe(200)
  })
})
