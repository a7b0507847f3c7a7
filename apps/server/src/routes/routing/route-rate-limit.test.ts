import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { postJson } from '../../../test/payment-test-kit.ts'

let testApp: TestApp

beforeAll(async () => {
  testApp = await buildTestApp()
})

afterAll(async () => {
  await testApp?.close()
})

describe('POST /api/{provider}/route rate limit', () => {
  it('answers 429 after 60 route requests a minute from one IP, while another IP still gets answers', async () => {
    const statuses: number[] = []
    for (let index = 0; index < 61; index++) {
      statuses.push((await postJson(testApp.app, '/api/local/route', {}, '198.51.100.7')).statusCode)
    }
    expect(statuses.slice(0, 60).every((status) => status === 422)).toBe(true)
    expect(statuses[60]).toBe(429)
    const other = await postJson(testApp.app, '/api/local/route', {}, '198.51.100.8')
    expect(other.statusCode).toBe(422)
    expect(other.json().error).toMatchObject({
      field: 'fromChain',
      message: 'fromChain must be a chain id such as 8453.',
    })
  })
})
