import { type SquidStandIn, startSquidStandIn } from '@quicklinks/devnet/start-squid-stand-in'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts'

const integratorId = 'quick-links-test'
const payer = `0x${'1'.repeat(40)}`

let squid: SquidStandIn
let testApp: TestApp

beforeAll(async () => {
  squid = await startSquidStandIn({ integratorId })
  testApp = await buildTestApp({
    routingProvider: 'squid',
    squidApiUrl: squid.url,
    squidIntegratorId: integratorId,
  })
})

afterAll(async () => {
  await testApp?.close()
  await squid?.stop()
})

const countCatalogueCalls = (path: string) => squid.requests.filter((request) => request.path === path).length

describe('routing provider plugin', () => {
  it('builds one provider for the app: two routes share its catalogue cache (Squid chains fetched once)', async () => {
    const chains = await testApp.app.inject({ method: 'GET', url: '/api/squid/chains' })
    expect(chains.statusCode).toBe(200)
    expect(chains.json().data.length).toBeGreaterThan(0)

    // The transactions route reads the chains for explorer links: from the same cache.
    const transactions = await testApp.app.inject({ method: 'GET', url: `/api/data/transactions/${payer}` })
    expect(transactions.statusCode).toBe(200)
    expect(transactions.json()).toEqual({ data: [] })

    expect(countCatalogueCalls('/v2/chains')).toBe(1)
    expect(testApp.app.routingProvider.name).toBe('squid')
  })
})
