import { type Hex, isHex } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, getSetCookie, type TestApp } from '../../../test/build-test-app.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const publicOrigin = 'https://pay.example.com'

type MessageOverrides = Partial<Parameters<typeof createSiweMessage>[0]>

describe('SIWE sign-in: GET /api/auth/nonce, POST /api/auth/login', () => {
  let testApp: TestApp
  let account: PrivateKeyAccount
  beforeAll(async () => {
    testApp = await buildTestApp({ publicOrigin })
    account = privateKeyToAccount(generatePrivateKey())
  })
  afterAll(async () => {
    await testApp.close()
  })

  const getNonce = async (): Promise<string> => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/auth/nonce' })
    expect(response.statusCode).toBe(200)
    return (response.json() as { data: { nonce: string } }).data.nonce
  }

  const buildMessage = (nonce: string, overrides: MessageOverrides = {}) =>
    createSiweMessage({
      address: account.address,
      chainId: 8453,
      domain: 'pay.example.com',
      nonce,
      uri: publicOrigin,
      version: '1',
      statement: 'Sign in to Quick Links.',
      issuedAt: new Date(),
      ...overrides,
    })

  const login = (body: unknown, cookies: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      cookies: { ...cookies, csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
      payload: body as Record<string, unknown>,
    })

  const signedLogin = async (overrides: MessageOverrides = {}, signer: PrivateKeyAccount = account) => {
    const message = buildMessage(await getNonce(), overrides)
    const signature = await signer.signMessage({ message })
    return { message, signature, response: await login({ message, signature }) }
  }

  const me = (token: string | undefined) =>
    testApp.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { ql_session: token ?? '' } })

  const expectRefusal = (response: Awaited<ReturnType<typeof login>>, message: string) => {
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message } })
    expect(getSetCookie(response, 'ql_session')).toBeUndefined()
  }

  it('hands out a different 128-bit alphanumeric nonce each time, never cached', async () => {
    const first = await testApp.app.inject({ method: 'GET', url: '/api/auth/nonce' })
    expect(first.headers['cache-control']).toBe('no-store')
    const nonces = [first.json().data.nonce, await getNonce(), await getNonce()]
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(new Set(nonces).size).toBe(3)
  })

  it('signs in, sets a new HttpOnly session cookie at every login, and /api/auth/me returns the user', async () => {
    const first = await signedLogin()
    expect(first.response.statusCode).toBe(200)
    const user = first.response.json().data
    expect(user).toEqual({
      id: expect.any(String),
      address: account.address.toLowerCase(),
      email: null,
      username: null,
      createdAt: expect.any(String),
    })
    const firstCookie = getSetCookie(first.response, 'ql_session')
    expect(firstCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' })

    const meAnswer = await me(firstCookie?.value)
    expect(meAnswer.statusCode).toBe(200)
    expect(meAnswer.json()).toEqual({ data: user })

    // The same wallet again: the same user, a new session id, and the old one is dead.
    const message = buildMessage(await getNonce())
    const second = await login(
      { message, signature: await account.signMessage({ message }) },
      { ql_session: firstCookie?.value ?? '' },
    )
    expect(second.statusCode).toBe(200)
    expect(second.json().data.id).toBe(user.id)
    const secondCookie = getSetCookie(second, 'ql_session')
    expect(secondCookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(secondCookie?.value).not.toBe(firstCookie?.value)
    expect((await me(firstCookie?.value)).statusCode).toBe(401)
    expect((await me(secondCookie?.value)).statusCode).toBe(200)

    // Logout ends it.
    const logout = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { ql_session: secondCookie?.value ?? '', csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
    })
    expect(logout.statusCode).toBe(200)
    expect((await me(secondCookie?.value)).statusCode).toBe(401)
  })

  it('refuses a replayed nonce', async () => {
    const { message, signature, response } = await signedLogin()
    expect(response.statusCode).toBe(200)
    expectRefusal(
      await login({ message, signature }),
      'This sign-in request has expired or was already used. Sign in again.',
    )
  })

  it('refuses a nonce this server never handed out', async () => {
    const message = buildMessage('abcdef0123456789abcdef0123456789')
    expectRefusal(
      await login({ message, signature: await account.signMessage({ message }) }),
      'This sign-in request has expired or was already used. Sign in again.',
    )
  })

  it('refuses a message made for another domain or URI', async () => {
    expectRefusal(
      (await signedLogin({ domain: 'evil.example.com' })).response,
      'This sign-in message was made for another site.',
    )
    expectRefusal(
      (await signedLogin({ uri: 'https://evil.example.com/login' })).response,
      'This sign-in message was made for another site.',
    )
    expectRefusal(
      (await signedLogin({ scheme: 'http' })).response,
      'This sign-in message was made for another site.',
    )
  })

  it('refuses a signature by another key', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    expectRefusal(
      (await signedLogin({}, other)).response,
      'The signature does not match the address in the sign-in message.',
    )
    // A well-formed hex string that is no signature at all.
    const message = buildMessage(await getNonce())
    expectRefusal(
      await login({ message, signature: `0x${'00'.repeat(65)}` }),
      'The signature does not match the address in the sign-in message.',
    )
  })

  it('refuses an expired message, one dated in the future, and one not valid yet', async () => {
    expectRefusal(
      (await signedLogin({ expirationTime: new Date(Date.now() - 1000) })).response,
      'This sign-in message has expired. Sign in again.',
    )
    expectRefusal(
      (await signedLogin({ issuedAt: new Date(Date.now() + 60 * 60 * 1000) })).response,
      'This sign-in message is dated in the future. Check your device clock and try again.',
    )
    expectRefusal(
      (await signedLogin({ notBefore: new Date(Date.now() + 60 * 60 * 1000) })).response,
      'This sign-in message is not valid yet. Try again in a moment.',
    )
    // Slightly fast device clocks are fine.
    expect((await signedLogin({ issuedAt: new Date(Date.now() + 30_000) })).response.statusCode).toBe(200)
  })

  it('answers 422 naming the field for a malformed request', async () => {
    const message = buildMessage(await getNonce())
    const signature: Hex = await account.signMessage({ message })
    expect(isHex(signature)).toBe(true)

    const missing = await login({ message })
    expect(missing.statusCode).toBe(422)
    expect(missing.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'signature' })

    const notHex = await login({ message, signature: 'not-hex' })
    expect(notHex.statusCode).toBe(422)
    expect(notHex.json().error).toMatchObject({ field: 'signature' })

    const notSiwe = await login({ message: 'Hello, sign me in', signature })
    expect(notSiwe.statusCode).toBe(422)
    expect(notSiwe.json().error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'message',
      message: 'message: is not a Sign-In with Ethereum message (the first line (domain) is missing)',
    })

    const noNonce = await login({ message: message.replace(/\nNonce: .*/, ''), signature })
    expect(noNonce.json().error).toMatchObject({
      field: 'message',
      message: 'message: is not a Sign-In with Ethereum message (the Nonce line is missing)',
    })

    const badDate = await login({
      message: message.replace(/Issued At: .*/, 'Issued At: yesterday'),
      signature,
    })
    expect(badDate.statusCode).toBe(422)
    expect(badDate.json().error.message).toContain('Issued At')
  })

  it('refuses a login without the CSRF token', async () => {
    const message = buildMessage(await getNonce())
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { message, signature: await account.signMessage({ message }) },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('CSRF_INVALID')
  })

  it('limits login attempts per IP', async () => {
    const limited = await buildTestApp({ publicOrigin })
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          cookies: { csrf_token: csrf },
          headers: { 'x-csrf-token': csrf },
          payload: { message: 'x', signature: '0x00' },
        })
      for (let index = 0; index < 30; index += 1) expect((await attempt()).statusCode).toBe(422)
      const refused = await attempt()
      expect(refused.statusCode).toBe(429)
      expect(refused.json().error.code).toBe('RATE_LIMITED')
    } finally {
      await limited.close()
    }
  })
})
