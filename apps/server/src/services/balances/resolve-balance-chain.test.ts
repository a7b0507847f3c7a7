import { describe, expect, it } from 'vitest'
import type { RoutingChain } from '../payments/route/routing-provider.ts'
import { normalizeChainName, resolveBalanceChain } from './resolve-balance-chain.ts'

const chain = (chainId: number, networkIdentifier: string, networkName: string): RoutingChain => ({
  chainId,
  networkIdentifier,
  networkName,
  chainIconURI: '',
  type: 'evm',
  enabled: true,
  visible: true,
  nativeCurrency: { symbol: 'ETH', decimals: 18 },
  rpcUrl: '',
  blockExplorerUrl: '',
})

const chains = [
  chain(8453, 'base', 'Base'),
  chain(42161, 'arbitrum', 'Arbitrum One'),
  chain(43114, 'avalanche', 'Avalanche C-Chain'),
]

describe('resolveBalanceChain', () => {
  it("normalises as documented: lowercase, spaces to hyphens, 'arbitrum-one' to 'arbitrum'", () => {
    expect(normalizeChainName('Arbitrum One')).toBe('arbitrum')
    expect(normalizeChainName('  Avalanche  C-Chain ')).toBe('avalanche-c-chain')
  })

  it('finds a chain by identifier in any case, by arbitrum-one, by network name, or by chain id', () => {
    expect(resolveBalanceChain(chains, 'BASE')?.chainId).toBe(8453)
    expect(resolveBalanceChain(chains, 'arbitrum-one')?.chainId).toBe(42161)
    expect(resolveBalanceChain(chains, 'Arbitrum One')?.chainId).toBe(42161)
    expect(resolveBalanceChain(chains, 'avalanche c-chain')?.chainId).toBe(43114)
    expect(resolveBalanceChain(chains, '42161')?.chainId).toBe(42161)
  })

  it('an unknown name or chain id finds nothing', () => {
    expect(resolveBalanceChain(chains, 'solana')).toBeUndefined()
    expect(resolveBalanceChain(chains, '1')).toBeUndefined()
  })
})
