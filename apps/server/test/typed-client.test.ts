import { createQuickLinksClient } from '@quicklinks/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from './build-test-app.ts'
import { buildLinkBody, signInTestUser, writeTestDeployment } from './link-test-fixtures.ts'

/**
 * The generated client (packages/client) as another TypeScript service uses it: over real HTTP,
 * with an API key, typed from the OpenAPI document (a wrong path or body would not compile).
 */
describe('@quicklinks/client against a running server', () => {
  let testApp: TestApp
  let baseUrl: string
  let keys: { writer: string; reader: string }

  beforeAll(async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    baseUrl = await testApp.app.listen({ port: 0, host: '127.0.0.1' })
    const owner = await signInTestUser(testApp)
    const make = async (scopes: string[]) => {
      const response = await owner.request({
        method: 'POST',
        url: '/api/api-keys',
        payload: { name: 'Client', scopes },
      })
      return (response.json().data as { key: string }).key
    }
    keys = { writer: await make(['links:read', 'links:write']), reader: await make(['payments:read']) }
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('creates and lists links with a key that has the scopes', async () => {
    const client = createQuickLinksClient({ baseUrl: `${baseUrl}/`, apiKey: keys.writer })
    const body = buildLinkBody({ alias: `Typed client ${Date.now().toString(36)}` }) as {
      alias: string
      receiver_address: string
      token_address: string
    }
    const created = await client.POST('/api/links', { body })
    expect(created.response.status, JSON.stringify(created.error)).toBe(201)
    const linkId = created.data?.data.id
    expect(linkId).toEqual(expect.any(String))
    const listed = await client.GET('/api/links')
    expect(listed.data?.data.map((link) => link.id)).toContain(linkId)
  })

  it('answers the typed error of a key without the scope', async () => {
    const client = createQuickLinksClient({ baseUrl, apiKey: keys.reader })
    const refused = await client.GET('/api/links')
    expect(refused.response.status).toBe(403)
    expect(refused.error).toEqual({ error: expect.objectContaining({ code: 'FORBIDDEN' }) })
  })
})
