import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, getSetCookie, type TestApp } from '../../test/build-test-app.ts'
import { readExportSignerPublicKey } from './read-export-signer-public-key.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await buildTestApp()
})
afterAll(async () => {
  await testApp.close()
})

describe('readExportSignerPublicKey', () => {
  it('reads the key the signer signs export bundles with, as signer-config announces it', async () => {
    const health = await testApp.app.inject({ method: 'GET', url: '/health' })
    const token = getSetCookie(health, 'csrf_token')?.value ?? ''
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/signer/v1/signer-config',
      headers: { 'x-csrf-token': token },
      cookies: { csrf_token: token },
      payload: {},
    })
    expect(response.statusCode).toBe(200)
    const { exportSignerPublicKey } = response.json<{ exportSignerPublicKey: string }>()
    expect(exportSignerPublicKey).toMatch(/^04[0-9a-f]{128}$/)
    expect(await readExportSignerPublicKey(testApp.app.db)).toBe(exportSignerPublicKey)
  })
})
