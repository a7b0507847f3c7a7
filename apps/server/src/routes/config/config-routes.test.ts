import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'

describe('GET /api/config', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('names the local routing provider, public and cacheable for a minute', async () => {
    testApp = await buildTestApp({ routingProvider: 'local' })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: { routingProvider: 'local', walletConnectProjectId: null } })
    expect(response.headers['cache-control']).toBe('public, max-age=60')
  })

  it('gives the WalletConnect project id the server was started with (WALLETCONNECT_PROJECT_ID)', async () => {
    const projectId = '0123456789abcdef0123456789abcdef'
    testApp = await buildTestApp({ walletConnectProjectId: projectId })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    expect(response.json().data.walletConnectProjectId).toBe(projectId)
  })

  it('names squid when the server routes through Squid, without a session or CSRF token', async () => {
    testApp = await buildTestApp({ routingProvider: 'squid', squidIntegratorId: 'test' })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ data: { routingProvider: 'squid', walletConnectProjectId: null } })
    // The routing routes answer under the name /api/config gives, and not under the other one.
    const wrongProvider = await testApp.app.inject({ method: 'GET', url: '/api/local/chains' })
    expect(wrongProvider.statusCode).toBe(404)
  })

  it('is described in the OpenAPI document', async () => {
    testApp = await buildTestApp()
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' })
    const document = response.json() as { paths: Record<string, { get?: { tags?: string[] } }> }
    expect(document.paths['/api/config']?.get?.tags).toEqual(['config'])
  })
})
