import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import {
  type SquidStandIn,
  squidRouterAddress,
  startSquidStandIn,
} from '@quicklinks/devnet/start-squid-stand-in'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nativeTokenAddress } from '../../route/routing-provider.ts'
import { createSquidRoutingProvider } from './create-squid-routing-provider.ts'

// The reusable Squid stand-in (packages/devnet) speaks what this provider reads: its catalogue,
// routes and statuses go through the provider's own parsing, as a Squid-configured server's would.

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
const deployment: DevnetDeployment = {
  chains: [
    {
      chainId: 8453,
      name: 'Base',
      rpcUrl: 'http://127.0.0.1:8645',
      bundlerUrl: 'http://127.0.0.1:8675',
      nativeSymbol: 'ETH',
      relayer: address('9'),
      tokens: [{ symbol: 'USDC', address: usdc, decimals: 6 }],
      contracts,
    },
    {
      chainId: 43114,
      name: 'Avalanche',
      rpcUrl: 'http://127.0.0.1:8646',
      bundlerUrl: 'http://127.0.0.1:8676',
      nativeSymbol: 'AVAX',
      relayer: address('9'),
      tokens: [{ symbol: 'USDC', address: address('b'), decimals: 6 }],
      contracts,
    },
  ],
}
const integratorId = 'quick-links-test'
const sourceTxHash = `0x${'12'.repeat(32)}` as const
const destinationHash = `0x${'34'.repeat(32)}`

let standIn: SquidStandIn
beforeAll(async () => {
  standIn = await startSquidStandIn({ deployment, integratorId })
})
afterAll(async () => {
  await standIn.stop()
})

const provider = () => createSquidRoutingProvider({ apiUrl: standIn.url, integratorId })

describe('squid routing provider against the Squid stand-in', () => {
  it("lists the devnet's chains and tokens with their prices", async () => {
    const chains = await provider().chains()
    expect(chains.map((chain) => [chain.chainId, chain.networkIdentifier, chain.rpcUrl])).toEqual([
      [8453, 'base', 'http://127.0.0.1:8645'],
      [43114, 'avalanche', 'http://127.0.0.1:8646'],
    ])
    const tokens = await provider().tokens()
    expect(tokens.map((token) => [token.chainId, token.symbol, token.address, token.usdPrice])).toEqual([
      [8453, 'ETH', nativeTokenAddress, 3000],
      [8453, 'USDC', usdc, 1],
      [43114, 'AVAX', nativeTokenAddress, 30],
      [43114, 'USDC', getAddress(address('b')), 1],
    ])
  })

  it('quotes a cross-chain route and follows its status to success on the destination', async () => {
    const quote = await provider().route({
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: nativeTokenAddress,
      toToken: usdc,
      fromAmount: 10n ** 17n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'ab'.repeat(32)}`,
    })
    // 0.1 AVAX at 30 USD: 3 USDC.
    expect([quote.toAmount, quote.toAmountMin]).toEqual([3_000_000n, 2_970_000n])
    expect(quote.transactionRequest).toMatchObject({ to: squidRouterAddress, value: String(10n ** 17n) })
    expect(quote.actions.map((action) => action.type)).toEqual(['bridge', 'transfer'])
    expect(quote.spender).toBeNull()
    expect(quote.providerData.requestId).toMatch(/^squid-stand-in-\d+$/)

    const statusQuery = {
      intentId: `0x${'ab'.repeat(32)}` as const,
      fromChainId: 43114,
      toChainId: 8453,
      sourceTxHash,
      providerData: quote.providerData,
      source: { logs: [], isConfirmed: true },
    }
    expect((await provider().status(statusQuery)).statusRaw).toBe('not_found')

    standIn.setStatus((query) => ({
      status: 'destination_executed',
      squidTransactionStatus: 'success',
      toChain: { transactionId: destinationHash },
      routeStatus: [
        { chainId: query.fromChainId, txHash: query.transactionId, status: 'success', action: 'call' },
        { chainId: query.toChainId, txHash: destinationHash, status: 'success', action: 'executed' },
      ],
    }))
    const status = await provider().status(statusQuery)
    expect(status).toMatchObject({ statusRaw: 'success', destTxHash: destinationHash })
    expect(status.steps.map((step) => `${step.chainId}:${step.status}:${step.txHash}`)).toEqual([
      `43114:success:${sourceTxHash}`,
      `8453:success:${destinationHash}`,
    ])
    const statusCall = standIn.requests.findLast((request) => request.path === '/v2/status')
    expect(statusCall?.query.get('requestId')).toBe(quote.providerData.requestId)
    expect(statusCall?.query.get('quoteId')).toBe(quote.providerData.quoteId)
  })
})
