import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AppError } from '@quicklinks/core/app-error'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../../../test/build-test-app.ts'
import { nativeTokenAddress, type RouteStatusQuery } from '../../route/routing-provider.ts'
import { createSquidRoutingProvider, type SquidProviderData } from './create-squid-routing-provider.ts'

const fixture = (name: string): unknown =>
  JSON.parse(
    readFileSync(new URL(`../../../../../test/fixtures/squid/${name}.json`, import.meta.url), 'utf8'),
  )

type Recorded = {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: unknown
}
type Reply = { status: number; body: unknown; headers?: Record<string, string> }

/** A loopback stand-in for Squid: replays the documented responses and records every request. */
let server: Server
let apiUrl: string
const requests: Recorded[] = []
let replies: Record<string, Reply> = {}

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      })
      const reply = replies[`${request.method} ${url.pathname}`] ?? {
        status: 404,
        body: { message: 'Not found' },
      }
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
      response.end(JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

afterEach(() => {
  requests.length = 0
  replies = {}
})

const provider = () => createSquidRoutingProvider({ apiUrl, integratorId: 'quick-links-test' })

const statusQuery: RouteStatusQuery<SquidProviderData> = {
  intentId: `0x${'ab'.repeat(32)}`,
  fromChainId: 43114,
  toChainId: 8453,
  sourceTxHash: '0xc6b6ed43d2e29b36197a1acc711ed14eec735de8525689ab0d216f736f4ba65c',
  providerData: { requestId: 'req-7f3a', quoteId: '6f388be5205ee044cd7fd5047a4ce72e' },
  source: { logs: [], isConfirmed: true },
}

describe('squid routing provider against recorded Squid v2 responses', () => {
  it('lists only EVM chains as Chain records, with the integrator id sent', async () => {
    replies['GET /v2/chains'] = { status: 200, body: fixture('chains') }
    const chains = await provider().chains()
    expect(chains).toEqual([
      {
        chainId: 8453,
        networkIdentifier: 'base',
        axelarChainName: 'base',
        networkName: 'Base',
        chainIconURI: 'https://raw.githubusercontent.com/0xsquid/assets/main/images/webp128/chains/base.webp',
        type: 'evm',
        enabled: true,
        visible: true,
        nativeCurrency: { symbol: 'ETH', decimals: 18 },
        rpcUrl: 'https://mainnet.base.org',
        blockExplorerUrl: 'https://basescan.org',
        contracts: {
          router: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
          multicall: '0xaD6Cea45f98444a922a2b4fE96b8C90F0862D2F4',
        },
      },
      expect.objectContaining({
        chainId: 43114,
        networkIdentifier: 'avalanche',
        axelarChainName: 'Avalanche',
        blockExplorerUrl: 'https://snowtrace.io',
        contracts: {},
      }),
    ])
    expect(requests[0]?.headers['x-integrator-id']).toBe('quick-links-test')
  })

  it("carries Squid's router, multicall and Coral multicall checksummed, and no axelarChainName when Squid has none", async () => {
    replies['GET /v2/chains'] = {
      status: 200,
      body: {
        chains: [
          {
            chainId: '42161',
            chainType: 'evm',
            networkName: 'Arbitrum',
            squidContracts: {
              squidRouter: '0xce16f69375520ab01377ce7b88f5ba8c48f8d666',
              squidMulticall: '0xad6cea45f98444a922a2b4fe96b8c90f0862d2f4',
              squidCoralMulticall: '0x5e7b4e8a8d9c8e0d1f1e1d1c1b1a191817161514',
              squidFeeCollector: '0x1111111111111111111111111111111111111111',
            },
          },
        ],
      },
    }
    const [chain] = await provider().chains()
    expect(chain).not.toHaveProperty('axelarChainName')
    expect(chain?.contracts).toEqual({
      router: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
      multicall: '0xaD6Cea45f98444a922a2b4fE96b8C90F0862D2F4',
      coralMulticall: '0x5e7B4E8A8D9c8e0d1f1e1d1C1b1a191817161514',
    })
  })

  it('lists EVM tokens checksummed with usdPrice (null when Squid has none)', async () => {
    replies['GET /v2/tokens'] = { status: 200, body: fixture('tokens') }
    const tokens = await provider().tokens()
    expect(tokens.map((token) => `${token.chainId}:${token.symbol}:${token.usdPrice}`)).toEqual([
      '8453:ETH:3021.47',
      '8453:USDC:0.9998',
      '43114:AVAX:29.84',
      '43114:USDC:null',
    ])
    expect(tokens[0]?.address).toBe(nativeTokenAddress)
    expect(tokens[1]).toEqual({
      chainId: 8453,
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      type: 'evm',
      logoURI: 'https://raw.githubusercontent.com/0xsquid/assets/main/images/tokens/usdc.svg',
      active: true,
      visible: true,
      usdPrice: 0.9998,
    })
  })

  it('posts the route request and maps the quote, keeping x-request-id and quoteId', async () => {
    replies['POST /v2/route'] = {
      status: 200,
      body: fixture('route-avalanche-avax-to-base-usdc'),
      headers: { 'x-request-id': 'req-7f3a' },
    }
    const quote = await provider().route({
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 10n ** 18n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'ab'.repeat(32)}`,
    })
    expect(requests[0]?.body).toEqual({
      fromChain: '43114',
      toChain: '8453',
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: '1000000000000000000',
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      quoteOnly: false,
    })
    expect(requests[0]?.headers['x-integrator-id']).toBe('quick-links-test')
    expect(quote.transactionRequest).toEqual({
      to: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
      target: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
      data: '0x846a1bc6000000000000000000000000b97ef9ef8734c71904d8002f8b6bc66dd9c48a6e',
      value: '1034165790470544000',
      gasLimit: '446000',
      maxFeePerGas: '1500000000',
      maxPriorityFeePerGas: '1500000000',
    })
    expect(quote.toAmount).toBe(22073181n)
    expect(quote.toAmountMin).toBe(21928745n)
    expect(quote.estimatedDurationMs).toBe(90_000)
    // Native input: nothing to approve.
    expect(quote.spender).toBeNull()
    expect(quote.providerData).toEqual({ requestId: 'req-7f3a', quoteId: '6f388be5205ee044cd7fd5047a4ce72e' })
    // swap, bridge (the fee action is not a step), then the transfer to the receiver.
    expect(
      quote.actions.map((action) => [action.type, action.fromChainId, action.toChainId, action.provider]),
    ).toEqual([
      ['swap', 43114, 43114, 'Pangolin'],
      ['bridge', 43114, 8453, 'Axelar'],
      ['transfer', 8453, 8453, 'Squid'],
    ])
    expect(quote.actions[0]).toMatchObject({
      fromToken: { chainId: 43114, address: nativeTokenAddress, symbol: 'AVAX', decimals: 18 },
      toToken: { chainId: 43114, address: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', symbol: 'USDC' },
      fromAmount: '1000000000000000000',
      toAmount: '22102730',
      toAmountMin: '21958291',
      estimatedMs: 20_000,
    })
    expect(quote.actions[1]?.estimatedMs).toBe(90_000)
    expect(quote.actions[2]).toMatchObject({ toAmount: '22073181', toAmountMin: '21928745' })
  })

  it('an ERC-20 input makes the route target the spender', async () => {
    replies['POST /v2/route'] = { status: 200, body: fixture('route-avalanche-avax-to-base-usdc') }
    const quote = await provider().route({
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 22_000_000n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'cd'.repeat(32)}`,
    })
    expect(quote.spender).toBe('0xce16F69375520ab01377ce7B88f5BA8C48F8D666')
    expect(quote.providerData.requestId).toBeNull()
  })

  it("a 4xx route answer is a 422 carrying Squid's message; a 5xx or silence is a 503", async () => {
    const request = {
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 1n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'ef'.repeat(32)}`,
    } as const
    replies['POST /v2/route'] = { status: 400, body: fixture('route-error') }
    const refused = await provider()
      .route(request)
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).status).toBe(422)
    expect((refused as AppError).userMessage).toBe(
      'No route: Unable to find a route for the given parameters',
    )

    replies['POST /v2/route'] = { status: 502, body: { message: 'bad gateway' } }
    const down = await provider()
      .route(request)
      .catch((error: unknown) => error)
    expect((down as AppError).status).toBe(503)

    const silent = createSquidRoutingProvider({
      apiUrl: 'http://127.0.0.1:9',
      integratorId: 'x',
      timeoutMs: 2000,
    })
    expect(((await silent.chains().catch((error: unknown) => error)) as AppError).status).toBe(503)
  })

  it('asks /v2/status with transactionId, chain ids, requestId and quoteId; maps a success', async () => {
    replies['GET /v2/status'] = { status: 200, body: fixture('status-success') }
    const status = await provider().status(statusQuery)
    const query = requests[0]?.query
    expect(Object.fromEntries(query ?? [])).toEqual({
      transactionId: statusQuery.sourceTxHash,
      fromChainId: '43114',
      toChainId: '8453',
      requestId: 'req-7f3a',
      quoteId: '6f388be5205ee044cd7fd5047a4ce72e',
    })
    expect(status).toEqual({
      statusRaw: 'success',
      destTxHash: '0x9af48c105a6556155eb86e9a2f552a51474ea11ff37a9a86c2ed24bb37abbbee',
      toAmountWei: null,
      steps: [
        { type: 'bridge', chainId: 43114, txHash: statusQuery.sourceTxHash, status: 'success' },
        {
          type: 'transfer',
          chainId: 8453,
          txHash: '0x9af48c105a6556155eb86e9a2f552a51474ea11ff37a9a86c2ed24bb37abbbee',
          status: 'success',
        },
      ],
      gasStatus: 'gas_paid_enough_gas',
      isGmpTransaction: true,
      axelarTransactionUrl:
        'https://axelarscan.io/gmp/0xc6b6ed43d2e29b36197a1acc711ed14eec735de8525689ab0d216f736f4ba65c',
      errorMessage: null,
    })
  })

  it('ongoing keeps the destination pending with no hash', async () => {
    replies['GET /v2/status'] = { status: 200, body: fixture('status-ongoing') }
    const status = await provider().status(statusQuery)
    expect(status.statusRaw).toBe('ongoing')
    expect(status.destTxHash).toBeNull()
    expect(status.steps.map((step) => step.status)).toEqual(['success', 'pending'])
  })

  it('a 404 and a 200 not_found both read as not_found', async () => {
    const notFound = await provider().status(statusQuery)
    expect(requests).toHaveLength(1)
    expect(notFound.statusRaw).toBe('not_found')
    replies['GET /v2/status'] = { status: 200, body: fixture('status-not-found') }
    expect((await provider().status(statusQuery)).statusRaw).toBe('not_found')
  })

  it('refund reads as refunded; failed_on_destination carries the error and a failed destination step', async () => {
    replies['GET /v2/status'] = { status: 200, body: fixture('status-refund') }
    const refunded = await provider().status(statusQuery)
    expect(refunded.statusRaw).toBe('refunded')
    expect(refunded.errorMessage).toBe('refunded')

    replies['GET /v2/status'] = { status: 200, body: fixture('status-failed-on-destination') }
    const failed = await provider().status(statusQuery)
    expect(failed.statusRaw).toBe('failed_on_destination')
    expect(failed.errorMessage).toBe('execution reverted: INSUFFICIENT_OUTPUT_AMOUNT')
    expect(failed.steps.map((step) => step.status)).toEqual(['success', 'failed'])
  })
})

describe('ROUTING_PROVIDER=squid over HTTP', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('GET /api/squid/chains and /tokens serve Squid’s catalogue; concurrent calls share one request, then 30 s of cache', async () => {
    replies['GET /v2/chains'] = { status: 200, body: fixture('chains') }
    replies['GET /v2/tokens'] = { status: 200, body: fixture('tokens') }
    testApp = await buildTestApp({ routingProvider: 'squid', squidApiUrl: apiUrl, squidIntegratorId: 'qli' })
    const app = testApp.app
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => app.inject({ method: 'GET', url: '/api/squid/tokens' })),
    )
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect(responses[0]?.json().data).toHaveLength(4)
    const chains = await app.inject({ method: 'GET', url: '/api/squid/chains' })
    expect(chains.json().data.map((chain: { chainId: number }) => chain.chainId)).toEqual([8453, 43114])
    await app.inject({ method: 'GET', url: '/api/squid/tokens' })
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v2/tokens',
      'GET /v2/chains',
    ])
    expect((await app.inject({ method: 'GET', url: '/api/local/tokens' })).statusCode).toBe(404)
  })
})
