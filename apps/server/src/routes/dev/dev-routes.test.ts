import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'

const deployment = {
  chains: [
    {
      chainId: 8453,
      name: 'Base',
      rpcUrl: 'http://127.0.0.1:8645',
      nativeSymbol: 'ETH',
      tokens: [{ symbol: 'USDC', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 }],
      contracts: {
        weth: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
        uniswapV2Factory: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
        uniswapV2Router: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
        multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
        wethUsdcPair: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
        usdtUsdcPair: '0x5FC8d32690CC91D4C39D63d3c0Ad71d54B4B8b2a',
      },
    },
  ],
}

describe('/api/dev routes', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('are a JSON 404 when DEV_MODE is off, even with the deployment file present', async () => {
    testApp = await buildTestApp({ devMode: false })
    const file = testApp.app.config.devnetDeploymentFile
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(deployment))
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('NOT_FOUND')
  })

  it('GET /api/dev/devnet serves the deployment file in dev mode', async () => {
    testApp = await buildTestApp({ devMode: true })
    const file = testApp.app.config.devnetDeploymentFile
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(deployment))
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(deployment)
  })

  it('GET /api/dev/devnet is 503 with a clear message until the devnet has written its file', async () => {
    testApp = await buildTestApp({ devMode: true })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(response.statusCode).toBe(503)
    expect(response.json().error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/devnet has not been deployed yet.*npm start/),
    })

    const file = testApp.app.config.devnetDeploymentFile
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, '{"chains": [')
    const partial = await testApp.app.inject({ method: 'GET', url: '/api/dev/devnet' })
    expect(partial.statusCode).toBe(503)
    expect(partial.json().error.message).toMatch(/not usable/)
  })
})
