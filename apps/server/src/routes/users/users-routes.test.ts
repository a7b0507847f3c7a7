import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { signInTestUser, type TestCaller } from '../../../test/link-test-fixtures.ts'

describe('/api/users/username', () => {
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

  const exists = async (username: string) => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/users/username/${username}/exists`,
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as { exists: boolean }
  }

  it('a user claims a free name; it then exists in any case and /api/auth/me shows it', async () => {
    expect(await exists('Satoshi_1')).toEqual({ exists: false })
    const me = await first.request({ method: 'GET', url: '/api/auth/me' })
    expect(me.json().data.username).toBeNull()

    const claim = await first.request({
      method: 'POST',
      url: '/api/users/username',
      payload: { username: 'Satoshi_1' },
    })
    expect(claim.statusCode, claim.body).toBe(200)
    expect(claim.json().data).toMatchObject({ id: first.userId, username: 'Satoshi_1' })

    expect(await exists('Satoshi_1')).toEqual({ exists: true })
    expect(await exists('satoshi_1')).toEqual({ exists: true })
    expect(await exists('SATOSHI_1')).toEqual({ exists: true })
    const after = await first.request({ method: 'GET', url: '/api/auth/me' })
    expect(after.json().data.username).toBe('Satoshi_1')
  })

  it('a name another user holds, in any case, is 409 "That username is taken."', async () => {
    await first.request({ method: 'POST', url: '/api/users/username', payload: { username: 'taken_name' } })
    const response = await second.request({
      method: 'POST',
      url: '/api/users/username',
      payload: { username: 'TAKEN_NAME' },
    })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({
      error: { code: 'CONFLICT', message: 'That username is taken.', field: 'username' },
    })
    const me = await second.request({ method: 'GET', url: '/api/auth/me' })
    expect(me.json().data.username).toBeNull()
  })

  it('a user can change their name, which frees the old one, and re-case their own', async () => {
    const caller = await signInTestUser(testApp)
    await caller.request({ method: 'POST', url: '/api/users/username', payload: { username: 'old_handle' } })
    const recased = await caller.request({
      method: 'POST',
      url: '/api/users/username',
      payload: { username: 'Old_Handle' },
    })
    expect(recased.statusCode).toBe(200)
    expect(recased.json().data.username).toBe('Old_Handle')
    const changed = await caller.request({
      method: 'POST',
      url: '/api/users/username',
      payload: { username: 'new_handle' },
    })
    expect(changed.json().data.username).toBe('new_handle')
    expect(await exists('old_handle')).toEqual({ exists: false })
  })

  it('an invalid name is 422 naming username, for the claim and the lookup', async () => {
    for (const username of ['ab', 'has space', 'dash-name', 'x'.repeat(33), 'émile']) {
      const claim = await first.request({ method: 'POST', url: '/api/users/username', payload: { username } })
      expect(claim.statusCode, username).toBe(422)
      expect(claim.json().error.field).toBe('username')
      const lookup = await testApp.app.inject({
        method: 'GET',
        url: `/api/users/username/${encodeURIComponent(username)}/exists`,
      })
      expect(lookup.statusCode, username).toBe(422)
      expect(lookup.json().error.field).toBe('username')
    }
  })

  it('claiming needs a session (401) and the CSRF header (403)', async () => {
    const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
    const anonymous = await testApp.app.inject({
      method: 'POST',
      url: '/api/users/username',
      payload: { username: 'nobody_here' },
      cookies: { csrf_token: csrf },
      headers: { 'x-csrf-token': csrf },
    })
    expect(anonymous.statusCode).toBe(401)
    const noHeader = await first.request({
      method: 'POST',
      url: '/api/users/username',
      payload: { username: 'nobody_here' },
      headers: { 'x-csrf-token': '' },
    })
    expect(noHeader.statusCode).toBe(403)
  })
})

describe('GET /api/users/username/{username}/exists rate limit', () => {
  it('answers 429 after 60 lookups a minute from one IP, while another IP still gets answers', async () => {
    const testApp = await buildTestApp()
    try {
      const lookup = (remoteAddress: string) =>
        testApp.app.inject({ method: 'GET', url: '/api/users/username/someone/exists', remoteAddress })
      const statuses: number[] = []
      for (let index = 0; index < 61; index += 1) statuses.push((await lookup('10.0.0.1')).statusCode)
      expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true)
      expect(statuses[60]).toBe(429)
      expect((await lookup('10.0.0.2')).statusCode).toBe(200)
    } finally {
      await testApp.close()
    }
  })
})
