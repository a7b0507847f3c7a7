import { describe, expect, it } from 'vitest'
import type { RouteAction } from '../route/routing-provider.ts'
import { buildRouteStepStatuses } from './build-route-step-statuses.ts'

const token = (chainId: number) => ({ chainId, address: '0x1', symbol: 'USDC', decimals: 6, logoURI: '' })
const action = (type: RouteAction['type'], fromChainId: number, toChainId: number): RouteAction => ({
  type,
  fromChainId,
  toChainId,
  fromToken: token(fromChainId),
  toToken: token(toChainId),
  fromAmount: '1',
  toAmount: '1',
  toAmountMin: '1',
  provider: 'test',
  providerLogoURI: '',
  estimatedMs: 1000,
})
const crossChain = [
  action('swap', 42161, 42161),
  action('bridge', 42161, 43114),
  action('transfer', 43114, 43114),
]
const source = `0x${'aa'.repeat(32)}`
const destination = `0x${'bb'.repeat(32)}`

describe('route_status entries, one per route action', () => {
  it('a cross-chain payment in flight: the source swap is done, bridge and transfer pending', () => {
    const steps = buildRouteStepStatuses(crossChain, {
      phase: 'source_done',
      fromChainId: 42161,
      sourceTxHash: source,
      destTxHash: null,
    })
    expect(steps).toEqual([
      { type: 'swap', chainId: 42161, txHash: source, status: 'success' },
      { type: 'bridge', chainId: 42161, txHash: source, status: 'pending' },
      { type: 'transfer', chainId: 43114, txHash: null, status: 'pending' },
    ])
  })

  it('a filled payment: every step succeeded, destination steps carry the fill hash', () => {
    const steps = buildRouteStepStatuses(crossChain, {
      phase: 'success',
      fromChainId: 42161,
      sourceTxHash: source,
      destTxHash: destination,
    })
    expect(steps.map((step) => [step.status, step.txHash])).toEqual([
      ['success', source],
      ['success', destination],
      ['success', destination],
    ])
  })

  it('a refunded payment: the source swap stands, bridge and transfer failed', () => {
    const steps = buildRouteStepStatuses(crossChain, {
      phase: 'refunded',
      fromChainId: 42161,
      sourceTxHash: source,
      destTxHash: null,
    })
    expect(steps.map((step) => step.status)).toEqual(['success', 'failed', 'failed'])
  })

  it('a same-chain swap follows its one transaction; a provider’s own statuses win when they align', () => {
    const sameChain = [action('swap', 8453, 8453), action('transfer', 8453, 8453)]
    expect(
      buildRouteStepStatuses(sameChain, {
        phase: 'source_failed',
        fromChainId: 8453,
        sourceTxHash: source,
        destTxHash: null,
      }).map((step) => [step.status, step.chainId, step.txHash]),
    ).toEqual([
      ['failed', 8453, source],
      ['failed', 8453, source],
    ])
    const providerSteps = [
      { type: 'swap' as const, chainId: 8453, txHash: source, status: 'success' },
      { type: 'transfer' as const, chainId: 8453, txHash: source, status: 'ongoing' },
    ]
    expect(
      buildRouteStepStatuses(sameChain, {
        phase: 'source_done',
        fromChainId: 8453,
        sourceTxHash: source,
        destTxHash: null,
        providerSteps,
      }),
    ).toEqual(providerSteps)
  })
})
