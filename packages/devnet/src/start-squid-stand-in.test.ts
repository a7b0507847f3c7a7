import { afterEach, describe, expect, it } from 'vitest'
import type { DevnetDeployment } from './devnet-deployment.ts'
import {
  type SquidStandIn,
  squidNativeTokenAddress,
  squidRouterAddress,
  startSquidStandIn,
} from './start-squid-stand-in.ts'

const address = (digit: string) => `0x${digit.repeat(40)}` as `0x${string}`

/** A deployment as deployment.json holds it (the addresses need no chain for these tests). */
const deployment: DevnetDeployment = {
  chains: [
    {
      chainId: 8453,
      name: 'Base',
      rpcUrl: 'http://127.0.0.1:8645',
      bundlerUrl: 'http://127.0.0.1:8675',
      nativeSymbol: 'ETH',
      relayer: address('9'),
      tokens: [
        { symbol: 'USDC', address: address('1'), decimals: 6 },
        { symbol: 'USDT', address: address('2'), decimals: 6 },
        { symbol: 'WETH', address: address('3'), decimals: 18 },
      ],
      contracts: {
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
      },
    },
    {
      chainId: 43114,
      name: 'Avalanche',
      rpcUrl: 'http://127.0.0.1:8646',
      bundlerUrl: 'http://127.0.0.1:8676',
      nativeSymbol: 'AVAX',
      relayer: address('9'),
      tokens: [{ symbol: 'USDC', address: address('b'), decimals: 6 }],
      contracts: {
        weth: address('c'),
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
      },
    },
  ],
}

const payer = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const receiver = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const sourceHash = `0x${'12'.repeat(32)}`
const destinationHash = `0x${'34'.repeat(32)}`

let standIn: SquidStandIn | undefined
afterEach(async () => {
  await standIn?.stop()
  standIn = undefined
})

async function getJson(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${standIn?.url}${path}`, { headers })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

async function postRoute(body: Record<string, unknown>) {
  const response = await fetch(`${standIn?.url}/v2/route`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

describe('the Squid stand-in', () => {
  it("lists the devnet's chains and tokens as Squid v2 does, RPC URLs on the anvils", async () => {
    standIn = await startSquidStandIn({ deployment })
    expect(standIn.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const chains = (await getJson('/v2/chains')).body.chains as Record<string, unknown>[]
    expect(chains).toHaveLength(2)
    expect(chains[0]).toMatchObject({
      chainId: '8453',
      chainType: 'evm',
      networkIdentifier: 'base',
      networkName: 'Base',
      rpc: 'http://127.0.0.1:8645',
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      squidContracts: { squidRouter: squidRouterAddress },
    })
    expect(chains[1]).toMatchObject({
      chainId: '43114',
      networkIdentifier: 'avalanche',
      rpc: 'http://127.0.0.1:8646',
    })

    const tokens = (await getJson('/v2/tokens')).body.tokens as Record<string, unknown>[]
    expect(
      tokens.map((token) => `${token.chainId} ${token.symbol} ${token.address} ${token.usdPrice}`),
    ).toEqual([
      `8453 ETH ${squidNativeTokenAddress} 3000`,
      `8453 USDC ${address('1')} 1`,
      `8453 USDT ${address('2')} 1`,
      `8453 WETH ${address('3')} 3000`,
      `43114 AVAX ${squidNativeTokenAddress} 30`,
      `43114 USDC ${address('b')} 1`,
    ])
    expect(tokens[1]).toMatchObject({ type: 'evm', decimals: 6, name: 'USD Coin' })
  })

  it('quotes a route from the request at USD prices, in the documented shape, with an x-request-id', async () => {
    standIn = await startSquidStandIn({ deployment })
    const request = {
      fromChain: '43114',
      toChain: '8453',
      fromToken: squidNativeTokenAddress,
      toToken: address('1'),
      fromAmount: '1000000000000000000',
      fromAddress: payer,
      toAddress: receiver,
      slippage: 1,
      quoteOnly: false,
    }
    const { status, headers, body } = await postRoute(request)
    expect(status).toBe(200)
    expect(headers.get('x-request-id')).toMatch(/^squid-stand-in-\d+$/)
    const route = body.route as {
      quoteId: string
      params: Record<string, unknown>
      estimate: {
        fromAmount: string
        toAmount: string
        toAmountMin: string
        actions: Record<string, unknown>[]
      }
      transactionRequest: Record<string, string>
    }
    // 1 AVAX at 30 USD is 30 USDC (6 decimals); 1 % slippage.
    expect(route.estimate).toMatchObject({
      fromAmount: '1000000000000000000',
      toAmount: '30000000',
      toAmountMin: '29700000',
    })
    expect(route.estimate.actions).toEqual([
      expect.objectContaining({
        type: 'bridge',
        fromChain: '43114',
        toChain: '8453',
        fromToken: expect.objectContaining({ symbol: 'AVAX', chainId: '43114' }),
        toToken: expect.objectContaining({ symbol: 'USDC', chainId: '8453', decimals: 6 }),
        toAmount: '30000000',
      }),
    ])
    expect(route.transactionRequest).toMatchObject({
      target: squidRouterAddress,
      value: '1000000000000000000',
      gasLimit: '446000',
    })
    expect(route.transactionRequest.data).toMatch(/^0x846a1bc6[0-9a-f]{256}$/)
    expect(route.quoteId).toMatch(/^[0-9a-f]{32}$/)
    expect(route.params).toEqual(request)

    // A token payment on one chain: a swap, no value; the second call has its own request id.
    const swap = await postRoute({
      ...request,
      fromChain: 8453,
      fromToken: address('2'),
      fromAmount: '2500000',
    })
    expect(swap.headers.get('x-request-id')).not.toBe(headers.get('x-request-id'))
    const swapRoute = swap.body.route as typeof route
    expect(swapRoute.estimate.actions.map((action) => action.type)).toEqual(['swap'])
    expect(swapRoute.estimate.toAmount).toBe('2500000')
    expect(swapRoute.transactionRequest.value).toBe('0')
    expect(standIn.requests.filter((entry) => entry.path === '/v2/route')).toHaveLength(2)
  })

  it("answers Squid's 400 for a token it does not list or a request that lacks a field", async () => {
    standIn = await startSquidStandIn({ deployment })
    const unknown = await postRoute({
      fromChain: '8453',
      toChain: '8453',
      fromToken: address('e'),
      toToken: address('1'),
      fromAmount: '1',
      toAddress: receiver,
    })
    expect(unknown).toMatchObject({
      status: 400,
      body: { message: 'Unable to find a route for the given parameters', type: 'SQUID_ROUTE_ERROR' },
    })
    const missing = await postRoute({ fromChain: '8453' })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('toChain is required')
  })

  it('lets a test answer the route itself, from its own quote', async () => {
    standIn = await startSquidStandIn({ deployment })
    standIn.setRoute((request, quote) =>
      request.fromChain === '8453' ? { httpStatus: 503, body: { message: 'down' } } : quote,
    )
    const base = {
      toChain: '8453',
      fromToken: squidNativeTokenAddress,
      toToken: address('1'),
      fromAmount: '10000000000000000',
    }
    expect((await postRoute({ ...base, fromChain: '8453', toAddress: receiver })).status).toBe(503)
    expect((await postRoute({ ...base, fromChain: '43114', toAddress: receiver })).status).toBe(200)
    standIn.setRoute()
    expect((await postRoute({ ...base, fromChain: '8453', toAddress: receiver })).status).toBe(200)
  })

  it("answers an unknown transaction's status with 404, then what the test sets, echoing the transaction", async () => {
    standIn = await startSquidStandIn({ deployment })
    const query = `transactionId=${sourceHash}&fromChainId=43114&toChainId=8453&requestId=r-1&quoteId=q-1`
    const unknown = await getJson(`/v2/status?${query}`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.id).toBe(sourceHash)

    standIn.setStatus({
      status: 'destination_executed',
      squidTransactionStatus: 'success',
      toChain: { transactionId: destinationHash },
    })
    expect(await getJson(`/v2/status?${query}`)).toMatchObject({
      status: 200,
      body: {
        id: sourceHash,
        squidTransactionStatus: 'success',
        fromChain: { transactionId: sourceHash },
        toChain: { transactionId: destinationHash },
      },
    })

    // A function of the query: each transaction its own answer.
    standIn.setStatus((status) =>
      status.transactionId === sourceHash
        ? { squidTransactionStatus: 'ongoing', status: 'source_gateway_called', requestId: status.requestId }
        : null,
    )
    expect((await getJson(`/v2/status?${query}`)).body).toMatchObject({
      squidTransactionStatus: 'ongoing',
      requestId: 'r-1',
    })
    expect((await getJson(`/v2/status?transactionId=${destinationHash}`)).status).toBe(404)
    const lastStatus = standIn.requests.findLast((entry) => entry.path === '/v2/status')
    expect(lastStatus?.query.get('transactionId')).toBe(destinationHash)
  })

  it('refuses a request without the integrator id when one is required', async () => {
    standIn = await startSquidStandIn({ deployment, integratorId: 'e2e' })
    expect((await getJson('/v2/chains')).status).toBe(401)
    expect((await getJson('/v2/chains', { 'x-integrator-id': 'e2e' })).status).toBe(200)
  })

  it('lists Base and Avalanche mainnet without a devnet', async () => {
    standIn = await startSquidStandIn()
    const tokens = (await getJson('/v2/tokens')).body.tokens as { chainId: string; symbol: string }[]
    expect(tokens.map((token) => `${token.chainId} ${token.symbol}`)).toEqual([
      '8453 ETH',
      '8453 USDC',
      '43114 AVAX',
      '43114 USDC',
    ])
  })
})
