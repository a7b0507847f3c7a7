import { AppError } from '@quicklinks/core/app-error'
import { describe, expect, it } from 'vitest'
import { readSquidFixture as fixture, useRecordedSquidApi } from '../../../../../test/recorded-squid-api.ts'
import { nativeTokenAddress } from '../../route/routing-provider.ts'
import { createSquidRoutingProvider } from './create-squid-routing-provider.ts'

// The Squid provider's route requests and quotes, and how it reads Squid's refusals and silence,
// against recorded Squid v2 responses from a loopback stand-in.

const squidApi = useRecordedSquidApi()
const { requests, replies } = squidApi
const provider = () => createSquidRoutingProvider({ apiUrl: squidApi.url, integratorId: 'quick-links-test' })

describe('squid routing provider against recorded Squid v2 responses', () => {
  it('posts the route request and maps the quote, keeping x-request-id and quoteId', async () => {
    replies['POST /v2/route'] = {
      status: 200,
      body: fixture('route-avalanche-avax-to-base-usdc'),
      headers: { 'x-request-id': 'req-7f3a' },
    }
    const quote = await provider().route({
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 10n ** 18n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'ab'.repeat(32)}`,
    })
    expect(requests[0]?.body).toEqual({
      fromChain: '43114',
      toChain: '8453',
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: '1000000000000000000',
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      quoteOnly: false,
    })
    expect(requests[0]?.headers['x-integrator-id']).toBe('quick-links-test')
    expect(quote.transactionRequest).toEqual({
      to: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
      target: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
      data: '0x846a1bc6000000000000000000000000b97ef9ef8734c71904d8002f8b6bc66dd9c48a6e',
      value: '1034165790470544000',
      gasLimit: '446000',
      maxFeePerGas: '1500000000',
      maxPriorityFeePerGas: '1500000000',
    })
    expect(quote.toAmount).toBe(22073181n)
    expect(quote.toAmountMin).toBe(21928745n)
    expect(quote.estimatedDurationMs).toBe(90_000)
    // Native input: nothing to approve.
    expect(quote.spender).toBeNull()
    expect(quote.providerData).toEqual({ requestId: 'req-7f3a', quoteId: '6f388be5205ee044cd7fd5047a4ce72e' })
    // swap, bridge (the fee action is not a step), then the transfer to the receiver.
    expect(
      quote.actions.map((action) => [action.type, action.fromChainId, action.toChainId, action.provider]),
    ).toEqual([
      ['swap', 43114, 43114, 'Pangolin'],
      ['bridge', 43114, 8453, 'Axelar'],
      ['transfer', 8453, 8453, 'Squid'],
    ])
    expect(quote.actions[0]).toMatchObject({
      fromToken: { chainId: 43114, address: nativeTokenAddress, symbol: 'AVAX', decimals: 18 },
      toToken: { chainId: 43114, address: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', symbol: 'USDC' },
      fromAmount: '1000000000000000000',
      toAmount: '22102730',
      toAmountMin: '21958291',
      estimatedMs: 20_000,
    })
    expect(quote.actions[1]?.estimatedMs).toBe(90_000)
    expect(quote.actions[2]).toMatchObject({ toAmount: '22073181', toAmountMin: '21928745' })
  })

  it('an ERC-20 input makes the route target the spender', async () => {
    replies['POST /v2/route'] = { status: 200, body: fixture('route-avalanche-avax-to-base-usdc') }
    const quote = await provider().route({
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E',
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 22_000_000n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'cd'.repeat(32)}`,
    })
    expect(quote.spender).toBe('0xce16F69375520ab01377ce7B88f5BA8C48F8D666')
    expect(quote.providerData.requestId).toBeNull()
  })

  it("a 4xx route answer is a 422 carrying Squid's message; a 5xx or silence is a 503", async () => {
    const request = {
      fromChainId: 43114,
      toChainId: 8453,
      fromToken: nativeTokenAddress,
      toToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      fromAmount: 1n,
      fromAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      toAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      slippage: 1,
      intentId: `0x${'ef'.repeat(32)}`,
    } as const
    replies['POST /v2/route'] = { status: 400, body: fixture('route-error') }
    const refused = await provider()
      .route(request)
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).status).toBe(422)
    expect((refused as AppError).userMessage).toBe(
      'No route: Unable to find a route for the given parameters',
    )

    replies['POST /v2/route'] = { status: 502, body: { message: 'bad gateway' } }
    const down = await provider()
      .route(request)
      .catch((error: unknown) => error)
    expect((down as AppError).status).toBe(503)

    const silent = createSquidRoutingProvider({
      apiUrl: 'http://127.0.0.1:9',
      integratorId: 'x',
      timeoutMs: 2000,
    })
    expect(((await silent.chains().catch((error: unknown) => error)) as AppError).status).toBe(503)
  })
})
