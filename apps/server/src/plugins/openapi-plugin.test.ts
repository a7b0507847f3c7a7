import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'

describe('GET /api/openapi.json', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await buildTestApp({ devMode: true })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('documents the routes from their zod schemas', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/health', '/api/auth/me', '/api/auth/logout', '/api/dev/devnet']),
    )
    expect(document.paths['/api/auth/me'].get.responses['200']).toBeDefined()
    expect(JSON.stringify(document)).toContain('"address"')
    expect(document.paths['/api/openapi.json']).toBeUndefined()
  })
})
