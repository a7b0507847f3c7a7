import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../../../test/build-test-app.ts'
import { readSquidFixture as fixture, useRecordedSquidApi } from '../../../../../test/recorded-squid-api.ts'
import { nativeTokenAddress } from '../../route/routing-provider.ts'
import { createSquidRoutingProvider } from './create-squid-routing-provider.ts'

// The Squid provider's catalogue (chains, tokens) against recorded Squid v2 responses from a
// loopback stand-in, and served over HTTP; its routes and statuses are in squid-provider-*.test.ts.

const squidApi = useRecordedSquidApi()
const { requests, replies } = squidApi
const provider = () => createSquidRoutingProvider({ apiUrl: squidApi.url, integratorId: 'quick-links-test' })

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
    testApp = await buildTestApp({
      routingProvider: 'squid',
      squidApiUrl: squidApi.url,
      squidIntegratorId: 'qli',
    })
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
