import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSignerTestApp, type SignerTestApp } from '../../test/build-signer-test-app.ts'
import { readExportSignerPublicKey } from './read-export-signer-public-key.ts'

let testApp: SignerTestApp
beforeAll(async () => {
  testApp = await buildSignerTestApp()
})
afterAll(async () => {
  await testApp.close()
})

describe('readExportSignerPublicKey', () => {
  it('reads the key the signer signs export bundles with, as signer-config announces it', async () => {
    const response = await testApp.post('signer-config', {})
    expect(response.statusCode).toBe(200)
    const { exportSignerPublicKey } = response.json<{ exportSignerPublicKey: string }>()
    expect(exportSignerPublicKey).toMatch(/^04[0-9a-f]{128}$/)
    expect(await readExportSignerPublicKey(testApp.app.db)).toBe(exportSignerPublicKey)
  })
})
