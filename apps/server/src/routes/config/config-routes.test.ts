import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'

describe('GET /api/config', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('names the local routing provider, public and cacheable for a minute', async () => {
    testApp = await buildTestApp({ routingProvider: 'local' })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      data: {
        routingProvider: 'local',
        walletConnectProjectId: null,
        smartAccounts: { defaultPolicyId: null, chains: [] },
        solana: null,
      },
    })
    expect(response.headers['cache-control']).toBe('public, max-age=60')
  })

  it('gives the WalletConnect project id the server was started with (WALLETCONNECT_PROJECT_ID)', async () => {
    const projectId = '0123456789abcdef0123456789abcdef'
    testApp = await buildTestApp({ walletConnectProjectId: projectId })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    expect(response.json().data.walletConnectProjectId).toBe(projectId)
  })

  it('names squid when the server routes through Squid, without a session or CSRF token', async () => {
    testApp = await buildTestApp({ routingProvider: 'squid', squidIntegratorId: 'test' })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      data: {
        routingProvider: 'squid',
        walletConnectProjectId: null,
        smartAccounts: { defaultPolicyId: null, chains: [] },
        solana: null,
      },
    })
    // The routing routes answer under the name /api/config gives, and not under the other one.
    const wrongProvider = await testApp.app.inject({ method: 'GET', url: '/api/local/chains' })
    expect(wrongProvider.statusCode).toBe(404)
  })

  it('lists the chains with a bundler and their contracts, sponsored where a policy and the paymaster cover them', async () => {
    const contracts = {
      accountFactory: '0x1111111111111111111111111111111111111111',
      multiOwnerAccountFactory: '0x2222222222222222222222222222222222222222',
      simple7702Account: '0x3333333333333333333333333333333333333333',
    } as const
    const paymaster = '0x4444444444444444444444444444444444444444'
    testApp = await buildTestApp({
      rpcUrls: { 8453: 'http://127.0.0.1:9/base', 10: 'http://127.0.0.1:9/op', 1: 'http://127.0.0.1:9/eth' },
      // Chain 1 has a bundler but no contracts: it is left out.
      bundlerUrls: {
        8453: 'http://127.0.0.1:9/bundler',
        10: 'http://127.0.0.1:9/bundler-op',
        1: 'http://127.0.0.1:9/b',
      },
      smartAccountContracts: { 8453: { ...contracts, paymaster }, 10: { ...contracts, paymaster } },
      paymasterSignerKey: `0x${'ab'.repeat(32)}`,
      sponsorPolicies: [
        {
          id: 'base-only',
          chainIds: [8453],
          accounts: 'embedded',
          tokens: ['USDC'],
          contracts: [],
          dailyGasCapWei: 1n,
          globalDailyGasCapWei: 1n,
        },
      ],
      sponsorDefaultPolicyId: 'base-only',
    })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    const entryPoint = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
    expect(response.json().data.smartAccounts).toEqual({
      defaultPolicyId: 'base-only',
      chains: [
        { chainId: 10, entryPoint, ...contracts, sponsored: false },
        { chainId: 8453, entryPoint, ...contracts, sponsored: true },
      ],
    })
    // Bundler URLs stay on the server: the page reaches them through /api/bundler/{chainId}.
    expect(response.body).not.toContain('bundler')
  })

  it('names the Solana endpoint, the fee sponsor and its default policy when Solana is set up', async () => {
    testApp = await buildTestApp({
      solanaDevnet: true,
      solanaSponsorPolicies: [
        {
          id: 'transfers',
          programs: ['11111111111111111111111111111111'],
          maxFeeLamports: 10_000n,
          dailyFeeCapLamports: 100_000n,
          globalDailyFeeCapLamports: 10_000_000n,
        },
      ],
      solanaSponsorDefaultPolicyId: 'transfers',
    })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.statusCode).toBe(200)
    const sponsorAddress = testApp.app.solana.sponsor?.address
    expect(sponsorAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(response.json().data.solana).toEqual({
      rpcPath: '/api/solana',
      sponsorAddress,
      defaultPolicyId: 'transfers',
    })
    // The generated key never leaves the server.
    expect(response.body).not.toContain('secret')
  })

  it('shows no sponsor when a Solana node is set but no SOLANA_SPONSOR_KEY', async () => {
    testApp = await buildTestApp({
      solanaRpcUrl: 'http://127.0.0.1:9/solana',
      solanaSponsorDefaultPolicyId: null,
    })
    const response = await testApp.app.inject({ method: 'GET', url: '/api/config' })
    expect(response.json().data.solana).toEqual({
      rpcPath: '/api/solana',
      sponsorAddress: null,
      defaultPolicyId: null,
    })
  })

  it('is described in the OpenAPI document', async () => {
    testApp = await buildTestApp()
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' })
    const document = response.json() as { paths: Record<string, { get?: { tags?: string[] } }> }
    expect(document.paths['/api/config']?.get?.tags).toEqual(['config'])
  })
})
