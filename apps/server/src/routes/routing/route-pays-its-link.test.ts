import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { signInTestUser } from '../../../test/link-test-fixtures.ts'
import { createTestLink, csrfToken, nativeToken, postJson } from '../../../test/payment-test-kit.ts'
import { links, routeIntents, users } from '../../db/schema.ts'
import { linkRequiredMessage } from '../../services/payments/route/build-route.ts'

// POST /api/squid/route against a loopback Squid that answers every route with a recorded quote:
// what is checked here is whether the server lets the request reach the provider at all.
const squidRoute = JSON.parse(
  readFileSync(
    new URL('../../../test/fixtures/squid/route-avalanche-avax-to-base-usdc.json', import.meta.url),
    'utf8',
  ),
) as unknown

const baseUsdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const baseUsdt = '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2'
const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const stranger = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const payer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let squid: Server
let squidUrl: string
let routeCalls = 0
let testApp: TestApp

beforeAll(async () => {
  squid = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v2/route') {
        routeCalls += 1
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(squidRoute))
        return
      }
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end('{"message":"Not found"}')
    })
  })
  await new Promise<void>((resolve) => squid.listen(0, '127.0.0.1', resolve))
  squidUrl = `http://127.0.0.1:${(squid.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => squid.close(resolve))
})

beforeEach(async () => {
  routeCalls = 0
  testApp = await buildTestApp({
    routingProvider: 'squid',
    squidApiUrl: squidUrl,
    squidIntegratorId: 'quick-links-test',
  })
})

afterEach(async () => {
  await testApp.close()
})

/** A USDC link on Base paid to `receiver`. */
const createBaseUsdcLink = () =>
  createTestLink(testApp.database.db, {
    owner: receiver,
    receiver,
    chainId: 8453,
    token: baseUsdc,
    symbol: 'USDC',
  })

/** What the pay modal sends for 1 AVAX on Avalanche to the link's Base USDC. */
const payBaseUsdc = (overrides: Record<string, unknown> = {}) => ({
  fromChain: 43114,
  toChain: 8453,
  fromToken: nativeToken,
  toToken: baseUsdc,
  fromAmount: '1000000000000000000',
  fromAddress: payer,
  toAddress: receiver,
  slippage: 1,
  ...overrides,
})

describe('POST /api/{provider}/route names the link it pays', () => {
  it("quotes a route that pays the link's receiver, chain and token, and stores the intent against the link", async () => {
    const link = await createBaseUsdcLink()
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/squid/route',
      payload: payBaseUsdc({ linkId: link.id }),
      cookies: { csrf_token: csrfToken },
      // A load balancer's request id: the workers' lines about this payment carry it.
      headers: { 'x-csrf-token': csrfToken, 'x-request-id': 'lb-route-0001' },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(routeCalls).toBe(1)
    const intentId = response.json().data.intentId as string
    const [intent] = await testApp.database.db
      .select()
      .from(routeIntents)
      .where(eq(routeIntents.id, intentId))
    expect(intent?.linkId).toBe(link.id)
    expect(intent?.requestId).toBe('lb-route-0001')
  })

  it('refuses a route naming a link but paying another receiver, token or chain, before any quote', async () => {
    const link = await createBaseUsdcLink()
    const lies = [
      { toAddress: stranger },
      { toToken: baseUsdt },
      { toChain: 43114, toToken: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E' },
      { toToken: nativeToken },
    ]
    for (const lie of lies) {
      const response = await postJson(
        testApp.app,
        '/api/squid/route',
        payBaseUsdc({ linkId: link.id, ...lie }),
      )
      expect(response.statusCode, JSON.stringify(lie)).toBe(422)
      expect(response.json().error).toEqual({
        code: 'VALIDATION_FAILED',
        field: 'linkId',
        message: "The route does not pay this link: toChain, toToken and toAddress must be the link's.",
      })
    }
    expect(routeCalls).toBe(0)
  })

  it('refuses a disabled link with 422 and an unknown link with 404', async () => {
    const link = await createBaseUsdcLink()
    await testApp.database.db.update(links).set({ enabled: false }).where(eq(links.id, link.id))
    const disabled = await postJson(testApp.app, '/api/squid/route', payBaseUsdc({ linkId: link.id }))
    expect(disabled.statusCode).toBe(422)
    expect(disabled.json().error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'linkId',
      message: 'This link is unavailable: its owner has turned it off.',
    })
    const unknown = await postJson(
      testApp.app,
      '/api/squid/route',
      payBaseUsdc({ linkId: '00000000-0000-4000-8000-000000000000' }),
    )
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error).toEqual({
      code: 'NOT_FOUND',
      field: 'linkId',
      message: 'This link does not exist: it may have been deleted.',
    })
    expect(routeCalls).toBe(0)
  })

  it('refuses a route without a link unless a signed-in user swaps into their own wallet', async () => {
    const signedOut = await postJson(testApp.app, '/api/squid/route', payBaseUsdc())
    expect(signedOut.statusCode).toBe(422)
    expect(signedOut.json().error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'linkId',
      message: linkRequiredMessage,
    })

    const user = await signInTestUser(testApp)
    const [own] = await testApp.database.db.select().from(users).where(eq(users.id, user.userId))
    if (!own) throw new Error('signed-in user not stored')
    const toSomeoneElse = await user.request({
      method: 'POST',
      url: '/api/squid/route',
      payload: payBaseUsdc({ fromAddress: own.address }),
    })
    expect(toSomeoneElse.statusCode).toBe(422)
    expect(toSomeoneElse.json().error.message).toBe(linkRequiredMessage)
    expect(routeCalls).toBe(0)

    const selfSwap = await user.request({
      method: 'POST',
      url: '/api/squid/route',
      payload: payBaseUsdc({ fromAddress: own.address, toAddress: own.address }),
    })
    expect(selfSwap.statusCode, selfSwap.body).toBe(200)
    expect(routeCalls).toBe(1)
  })
})
