import { AppError } from '@quicklinks/core/app-error'
import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import {
  type SquidReply,
  type SquidStandIn,
  startSquidStandIn,
} from '@quicklinks/devnet/start-squid-stand-in'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSquidRoutingProvider } from '../providers/squid/create-squid-routing-provider.ts'
import { quoteRoute, type UnpricedRouteRequest } from './quote-route.ts'
import { nativeTokenAddress } from './routing-provider.ts'

// Squid quotes input → output only: exact output probes at the catalogue's USD prices, scales the
// input so toAmountMin (after slippage) covers the amount, and re-quotes once more when short. The
// stand-in (packages/devnet, the same one the Squid provider's tests use) quotes at its USD prices.

const address = (digit: string) => `0x${digit.repeat(40)}` as `0x${string}`
const usdc = address('1')
const contracts = {
  weth: address('3'),
  uniswapV2Factory: address('4'),
  uniswapV2Router: address('5'),
  multicall3: address('6'),
  wethUsdcPair: address('7'),
  usdtUsdcPair: address('8'),
  payRouter: address('a'),
  entryPointV07: address('d'),
  entryPointV08: address('e'),
  accountFactory: address('f'),
  multiOwnerAccountFactory: `0x${'12'.repeat(20)}` as const,
  simple7702Account: `0x${'34'.repeat(20)}` as const,
  sponsorPaymaster: `0x${'56'.repeat(20)}` as const,
}
const chain = (chainId: number, name: string, nativeSymbol: string, token: `0x${string}`) => ({
  chainId,
  name,
  rpcUrl: 'http://127.0.0.1:8645',
  bundlerUrl: 'http://127.0.0.1:8675',
  nativeSymbol,
  relayer: address('9'),
  tokens: [{ symbol: 'USDC', address: token, decimals: 6 }],
  contracts,
})
const deployment: DevnetDeployment = {
  chains: [chain(8453, 'Base', 'ETH', usdc), chain(43114, 'Avalanche', 'AVAX', address('b'))],
}
const integratorId = 'quick-links-test'

let standIn: SquidStandIn
beforeAll(async () => {
  standIn = await startSquidStandIn({ deployment, integratorId })
})
afterAll(async () => {
  await standIn.stop()
})
afterEach(() => {
  standIn.setRoute()
})

const provider = () => createSquidRoutingProvider({ apiUrl: standIn.url, integratorId })
/** 0.1 AVAX-worth of Base USDC paid from Avalanche AVAX (30 USD), 1 % slippage. */
const request: UnpricedRouteRequest = {
  fromChainId: 43114,
  toChainId: 8453,
  fromToken: nativeTokenAddress,
  toToken: usdc,
  fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  slippage: 1,
  intentId: `0x${'ab'.repeat(32)}`,
}
const routeCalls = () => standIn.requests.filter((call) => call.path === '/v2/route')

/** A route handler that quotes `percent` less than the stand-in's own price from call `fromCall` on. */
function quoteLess(percent: number, fromCall: number) {
  let calls = 0
  return (_request: unknown, quote: SquidReply): SquidReply => {
    calls++
    if (calls < fromCall) return quote
    const body = quote.body as { route: { estimate: Record<string, string> } }
    const cut = (amount: string) => ((BigInt(amount) * BigInt(10_000 - percent * 100)) / 10_000n).toString()
    body.route.estimate.toAmount = cut(body.route.estimate.toAmount ?? '0')
    body.route.estimate.toAmountMin = cut(body.route.estimate.toAmountMin ?? '0')
    return quote
  }
}

describe('exact output through Squid (the stand-in)', () => {
  it('scales the probe so toAmountMin covers the amount, and answers the expected excess', async () => {
    const before = routeCalls().length
    const quoted = await quoteRoute(provider(), request, { toAmount: 12_000_000n })
    expect(quoted.quote.toAmountMin).toBeGreaterThanOrEqual(12_000_000n)
    // 12 USDC / 0.99 at 30 USD an AVAX: about 0.404 AVAX, a hundredth of a percent over.
    expect(quoted.fromAmount).toBeGreaterThan(404_000_000_000_000_000n)
    expect(quoted.fromAmount).toBeLessThan(404_200_000_000_000_000n)
    expect(quoted.exactOutput).toEqual({
      requestedToAmount: 12_000_000n,
      expectedExcess: quoted.quote.toAmount - 12_000_000n,
    })
    // The excess is about the slippage's percent: what covers price movement.
    expect(quoted.exactOutput?.expectedExcess).toBeGreaterThan(100_000n)
    expect(quoted.exactOutput?.expectedExcess).toBeLessThan(140_000n)
    expect(routeCalls().length - before).toBe(2)
  })

  it('re-quotes once more when the price moved down between the probe and the quote', async () => {
    standIn.setRoute(quoteLess(0.5, 2))
    const before = routeCalls().length
    const quoted = await quoteRoute(provider(), request, { toAmount: 5_000_000n })
    expect(quoted.quote.toAmountMin).toBeGreaterThanOrEqual(5_000_000n)
    expect(routeCalls().length - before).toBe(3)
  })

  it('answers 422 on toAmount when the price keeps falling', async () => {
    let calls = 0
    standIn.setRoute((routeRequest, quote) => quoteLess(2 * ++calls, 1)(routeRequest, quote))
    const error = await quoteRoute(provider(), request, { toAmount: 5_000_000n }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'toAmount' })
  })

  it('starts the same token on the same chain at the amount itself, scaling only if the provider takes slippage off', async () => {
    const before = routeCalls().length
    const quoted = await quoteRoute(
      provider(),
      { ...request, fromChainId: 8453, fromToken: usdc },
      { toAmount: 3_000_000n },
    )
    const calls = routeCalls().slice(before)
    expect((calls[0]?.body as { fromAmount?: string } | undefined)?.fromAmount).toBe('3000000')
    // The stand-in quotes even USDC → USDC with 1 % off its minimum: one scaled re-quote covers it.
    expect(calls).toHaveLength(2)
    expect(quoted.quote.toAmountMin).toBeGreaterThanOrEqual(3_000_000n)
  })
})
