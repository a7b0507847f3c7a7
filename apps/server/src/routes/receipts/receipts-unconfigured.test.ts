import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  // Not dev mode and no RECEIPT_SIGNING_KEY: the instance runs, its receipts wait for a key.
  testApp = await buildTestApp({ devMode: false, receiptSigningKey: undefined })
})
afterAll(async () => {
  await testApp?.close()
})

describe('receipts without a receipt key', () => {
  it('answer 503 saying the operator must set RECEIPT_SIGNING_KEY', async () => {
    for (const url of [`/api/receipts/0x${'ab'.repeat(32)}`, '/.well-known/quick-links-receipts.json']) {
      const response = await testApp.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toMatch(/must set RECEIPT_SIGNING_KEY/)
    }
  })
})
