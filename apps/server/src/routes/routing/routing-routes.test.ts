import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import {
  avalancheUsdc,
  baseUsdc,
  nativeAddress,
  writeTestDeployment,
} from '../../../test/link-test-fixtures.ts'

describe('/api/{provider}/chains and /tokens', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('GET /api/local/chains lists the deployment’s chains as Chain records', async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    const response = await testApp.app.inject({ method: 'GET', url: '/api/local/chains' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      data: [
        {
          chainId: 8453,
          networkIdentifier: 'base',
          networkName: 'Base',
          chainIconURI: '',
          type: 'evm',
          enabled: true,
          visible: true,
          nativeCurrency: { symbol: 'ETH', decimals: 18 },
          rpcUrl: 'http://127.0.0.1:8645',
          blockExplorerUrl: '',
          contracts: {
            router: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
            multicall: '0xcA11bde05977b3631167028862bE2a173976CA11',
          },
        },
        {
          chainId: 43114,
          networkIdentifier: 'avalanche',
          networkName: 'Avalanche',
          chainIconURI: '',
          type: 'evm',
          enabled: true,
          visible: true,
          nativeCurrency: { symbol: 'AVAX', decimals: 18 },
          rpcUrl: 'http://127.0.0.1:8646',
          blockExplorerUrl: '',
          contracts: {
            router: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
            multicall: '0xcA11bde05977b3631167028862bE2a173976CA11',
          },
        },
      ],
    })
  })

  it('GET /api/local/tokens lists each chain’s native token (all-e address) and its deployed tokens', async () => {
    // No chain answers here (a closed port): prices fall back to USDC = 1 and null for the rest.
    testApp = await buildTestApp({ rpcUrls: { 8453: 'http://127.0.0.1:9', 43114: 'http://127.0.0.1:9' } })
    writeTestDeployment(testApp)
    const response = await testApp.app.inject({ method: 'GET', url: '/api/local/tokens' })
    expect(response.statusCode).toBe(200)
    const tokens = response.json().data as Record<string, unknown>[]
    expect(tokens.map((token) => `${token.chainId}:${token.symbol}`)).toEqual([
      '8453:ETH',
      '8453:USDC',
      '8453:USDT',
      '8453:WETH',
      '43114:AVAX',
      '43114:USDC',
      '43114:USDT',
      '43114:WAVAX',
    ])
    expect(tokens[0]).toEqual({
      chainId: 8453,
      address: nativeAddress,
      symbol: 'ETH',
      name: 'Ether',
      decimals: 18,
      type: 'evm',
      logoURI: '',
      active: true,
      visible: true,
      usdPrice: null,
    })
    expect(tokens[1]).toMatchObject({ address: baseUsdc, name: 'USD Coin', decimals: 6, usdPrice: 1 })
    expect(tokens[2]).toMatchObject({ symbol: 'USDT', usdPrice: null })
    expect(tokens[5]).toMatchObject({ address: avalancheUsdc, chainId: 43114 })
  })

  it('another provider’s name is 404', async () => {
    testApp = await buildTestApp()
    writeTestDeployment(testApp)
    for (const url of ['/api/squid/chains', '/api/nope/tokens']) {
      const response = await testApp.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('NOT_FOUND')
    }
  })

  it('without dev mode or a deployment file, chains and tokens are 503 "No chains configured"', async () => {
    testApp = await buildTestApp({ devMode: false })
    for (const url of ['/api/local/chains', '/api/local/tokens']) {
      const response = await testApp.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(503)
      expect(response.json().error).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/^No chains configured: .*DEVNET_DEPLOYMENT_FILE/),
      })
    }
  })

  it('in dev mode before the devnet has deployed, they are 503 saying how to start it', async () => {
    testApp = await buildTestApp({ devMode: true })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/local/chains' })
    expect(response.statusCode).toBe(503)
    expect(response.json().error.message).toMatch(/devnet has not been deployed yet/)
  })

  it('ROUTING_PROVIDER=squid serves /api/squid/… (503 while Squid does not answer) and refuses /api/local/…', async () => {
    testApp = await buildTestApp({ routingProvider: 'squid' })
    writeTestDeployment(testApp)
    expect((await testApp.app.inject({ method: 'GET', url: '/api/local/chains' })).statusCode).toBe(404)
    const squid = await testApp.app.inject({ method: 'GET', url: '/api/squid/chains' })
    expect(squid.statusCode).toBe(503)
    expect(squid.json().error.message).toMatch(/Squid/)
  })
})
