import type { RoutingToken } from '@quicklinks/core/api/routing'
import { describe, expect, it } from 'vitest'
import { createApiClient } from '../../lib/api-client'
import { createCatalogue, getChainContracts, selectOfferedChains, selectOfferedTokens } from './catalogue'
import { createRoutingProviderSource } from './routing-provider'

function fakeClient(handler: (path: string) => Response | Promise<Response>) {
  const paths: string[] = []
  const client = createApiClient({
    baseUrl: 'http://test',
    fetch: async (input) => {
      const path = String(input).replace('http://test', '')
      paths.push(path)
      return handler(path)
    },
    readCookies: () => '',
    isOffline: () => false,
  })
  return { client, paths }
}

/** The provider's name as if GET /api/config had said `local`. */
const local = () => Promise.resolve('local')

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const tokenRows = [
  {
    chainId: 8453,
    address: '0xa',
    symbol: 'USDT',
    name: 'Tether',
    decimals: 6,
    type: 'evm',
    logoURI: '',
    active: true,
    visible: true,
    usdPrice: null,
  },
  {
    chainId: 8453,
    address: '0xb',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    type: 'evm',
    logoURI: '',
    active: true,
    visible: true,
    usdPrice: null,
  },
  {
    chainId: 43114,
    address: '0xc',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    type: 'evm',
    logoURI: '',
    active: true,
    visible: true,
    usdPrice: null,
  },
  {
    chainId: 1,
    address: 'So1',
    symbol: 'SOL',
    name: 'Solana',
    decimals: 9,
    type: 'svm',
    logoURI: '',
    active: true,
    visible: true,
  },
]

describe('routing catalogue', () => {
  it('shares one in-flight tokens request between concurrent callers and caches it, indexed by chain', async () => {
    // The answer waits until every caller has asked, so they all ask while it is in flight.
    let answer = (): void => {}
    const isAnswered = new Promise<void>((resolve) => (answer = resolve))
    const { client, paths } = fakeClient(async () => {
      await isAnswered
      return json({ data: tokenRows })
    })
    const catalogue = createCatalogue(client, local)
    const asked = Promise.all([catalogue.getTokens(8453), catalogue.getTokens(43114), catalogue.getTokens()])
    answer()
    const [base, avalanche, all] = await asked
    expect(paths).toEqual(['/api/local/tokens'])
    expect(base.items.map((token) => token.symbol)).toEqual(['USDT', 'USDC'])
    expect(avalanche.items.map((token) => token.address)).toEqual(['0xc'])
    // Only evm tokens are kept.
    expect(all.items).toHaveLength(3)
    await catalogue.getTokens(8453)
    expect(paths).toHaveLength(1)
  })

  it('gives an empty list and the documented messages on failure, and asks again next time', async () => {
    let fail = true
    const { client, paths } = fakeClient((path) =>
      fail
        ? json({ error: { code: 'INTERNAL', message: 'boom' } }, 500)
        : json({ data: path.endsWith('tokens') ? tokenRows : [] }),
    )
    const catalogue = createCatalogue(client, local)
    expect(await catalogue.getTokens(8453)).toEqual({ items: [], error: 'Failed to load tokens' })
    expect(await catalogue.getChains()).toEqual({ items: [], error: 'Failed to load chains' })
    fail = false
    expect((await catalogue.getTokens(8453)).items).toHaveLength(2)
    expect(paths.filter((path) => path.endsWith('/tokens')).length).toBeGreaterThanOrEqual(2)
  })

  it('calls the provider GET /api/config names, asking for the name once for chains and tokens', async () => {
    const { client, paths } = fakeClient((path) => {
      if (path === '/api/config') return json({ data: { routingProvider: 'squid' } })
      return json({ data: path.endsWith('/tokens') ? tokenRows : [] })
    })
    const catalogue = createCatalogue(client, createRoutingProviderSource(client))
    const [chains, tokens] = await Promise.all([catalogue.getChains(), catalogue.getTokens(8453)])
    expect(chains.error).toBeNull()
    expect(tokens.items.map((token) => token.symbol)).toEqual(['USDT', 'USDC'])
    expect(paths.filter((path) => path === '/api/config')).toHaveLength(1)
    expect(paths.filter((path) => path !== '/api/config').sort()).toEqual([
      '/api/squid/chains',
      '/api/squid/tokens',
    ])
  })

  it('gives the documented messages when GET /api/config fails, and asks for it again later', async () => {
    let isConfigDown = true
    const { client, paths } = fakeClient((path) => {
      if (path === '/api/config') {
        return isConfigDown
          ? json({ error: { code: 'INTERNAL', message: 'boom' } }, 500)
          : json({ data: { routingProvider: 'squid' } })
      }
      return json({ data: path.endsWith('/tokens') ? tokenRows : [] })
    })
    const catalogue = createCatalogue(client, createRoutingProviderSource(client))
    expect(await catalogue.getChains()).toEqual({ items: [], error: 'Failed to load chains' })
    expect(await catalogue.getTokens(8453)).toEqual({ items: [], error: 'Failed to load tokens' })
    expect(paths.some((path) => path.startsWith('/api/local/') || path.startsWith('/api/squid/'))).toBe(false)

    isConfigDown = false
    expect((await catalogue.getTokens(8453)).items).toHaveLength(2)
    expect(await catalogue.getChains()).toEqual({ items: [], error: null })
    expect(paths.filter((path) => path === '/api/config')).toHaveLength(3)
    expect(paths.filter((path) => path.startsWith('/api/squid/')).sort()).toEqual([
      '/api/squid/chains',
      '/api/squid/tokens',
    ])
  })

  it('keeps only evm chains; offers enabled and visible chains sorted by network identifier', async () => {
    const { client } = fakeClient(() =>
      json({
        data: [
          {
            chainId: 8453,
            networkIdentifier: 'base',
            networkName: 'Base',
            chainIconURI: '',
            type: 'evm',
            nativeCurrency: { symbol: 'ETH', decimals: 18 },
            rpcUrl: '',
            blockExplorerUrl: '',
            enabled: true,
            visible: true,
          },
          {
            chainId: 43114,
            networkIdentifier: 'avalanche',
            networkName: 'Avalanche',
            chainIconURI: '',
            type: 'evm',
            nativeCurrency: { symbol: 'ETH', decimals: 18 },
            rpcUrl: '',
            blockExplorerUrl: '',
            enabled: true,
            visible: true,
          },
          {
            chainId: 42161,
            networkIdentifier: 'arbitrum',
            networkName: 'Arbitrum',
            chainIconURI: '',
            type: 'evm',
            nativeCurrency: { symbol: 'ETH', decimals: 18 },
            rpcUrl: '',
            blockExplorerUrl: '',
            enabled: false,
            visible: true,
          },
          {
            chainId: 'solana',
            networkIdentifier: 'solana',
            networkName: 'Solana',
            type: 'svm',
            enabled: true,
            visible: true,
          },
        ],
      }),
    )
    const { items } = await createCatalogue(client, local).getChains()
    expect(items).toHaveLength(3)
    expect(selectOfferedChains(items).map((chain) => chain.networkIdentifier)).toEqual(['avalanche', 'base'])
  })

  it("keeps a chain's axelarChainName and the provider's contracts, which getChainContracts reads for the spender", async () => {
    const router = '0xce16F69375520ab01377ce7B88f5BA8C48F8D666'
    const multicall = '0xaD6Cea45f98444a922a2b4fE96b8C90F0862D2F4'
    const { client } = fakeClient(() =>
      json({
        data: [
          {
            chainId: 8453,
            networkIdentifier: 'base',
            axelarChainName: 'base',
            networkName: 'Base',
            chainIconURI: '',
            type: 'evm',
            nativeCurrency: { symbol: 'ETH', decimals: 18 },
            rpcUrl: '',
            blockExplorerUrl: '',
            enabled: true,
            visible: true,
            contracts: { router, multicall },
          },
        ],
      }),
    )
    const { items } = await createCatalogue(client, local).getChains()
    expect(items[0]?.axelarChainName).toBe('base')
    expect(getChainContracts(items, 8453)).toEqual({ router, multicall })
    expect(getChainContracts(items, 43114)).toEqual({})
  })

  it('offers active and visible tokens sorted by symbol', () => {
    const tokens = tokenRows.slice(0, 2).map((row) => ({ ...row }) as RoutingToken)
    tokens.push({ ...(tokens[0] as RoutingToken), symbol: 'AAA', visible: false })
    expect(selectOfferedTokens(tokens).map((token) => token.symbol)).toEqual(['USDC', 'USDT'])
  })
})
