import { routeAnswerSchema } from '@quicklinks/core/api/client-answers'
import type { RouteResult } from '@quicklinks/core/api/routing'
import { nativeTokenAddress } from '@quicklinks/core/native-token-address'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApiClient } from '../../lib/api-client'
import { createRoutingProviderSource } from '../routing/routing-provider'
import {
  buildRoute,
  createRouteScheduler,
  describeRouteError,
  type RouteInput,
  type RouteState,
  toRouteResult,
  toWalletTransaction,
} from './route-builder'
import { selectSpender } from './spender'

const router = `0x${'b'.repeat(40)}`
const answer = {
  data: {
    intentId: `0x${'1'.repeat(64)}`,
    route: {
      transactionRequest: { to: router, target: router, data: '0xabcdef', value: '10', gasLimit: '21000' },
      estimate: {
        fromAmount: '10',
        toAmount: '9',
        toAmountMin: '9',
        estimatedRouteDuration: 15,
        actions: [
          {
            type: 'swap',
            fromChainId: 8453,
            toChainId: 8453,
            fromToken: {
              chainId: 8453,
              address: `0x${'e'.repeat(40)}`,
              symbol: 'ETH',
              decimals: 18,
              logoURI: '',
            },
            toToken: {
              chainId: 8453,
              address: `0x${'c'.repeat(40)}`,
              symbol: 'USDC',
              decimals: 6,
              logoURI: '',
            },
            fromAmount: '10',
            toAmount: '9',
            toAmountMin: '9',
            provider: 'Uniswap V2',
            providerLogoURI: '',
            estimatedMs: 15000,
          },
        ],
      },
      spender: null,
    },
  },
}

/** A route answer as the client reads it: its schema, then the wallet's view. */
const parseRouteAnswer = (body: unknown) => toRouteResult(routeAnswerSchema.parse(body).data)

describe('toRouteResult', () => {
  it('reads the intent, the transaction and the actions', () => {
    const route = parseRouteAnswer(answer)
    expect(route.intentId).toBe(`0x${'1'.repeat(64)}`)
    expect(toWalletTransaction(route.route.transactionRequest)).toEqual({
      to: router,
      data: '0xabcdef',
      value: 10n,
      gas: 21000n,
    })
    expect(
      route.route.estimate.actions.map(
        (action) => `${action.type} ${action.fromToken.symbol}→${action.toToken.symbol}`,
      ),
    ).toEqual(['swap ETH→USDC'])
    expect(route.route.spender).toBeNull()
    expect([route.route.estimate.toAmount, route.route.estimate.toAmountMin]).toEqual(['9', '9'])
  })

  it('calls target when to is not an address', () => {
    const { transactionRequest } = answer.data.route
    const route = parseRouteAnswer({
      data: {
        ...answer.data,
        route: { ...answer.data.route, transactionRequest: { ...transactionRequest, to: '' } },
      },
    })
    expect(route.route.transactionRequest.to).toBe(router)
  })

  it('refuses a route without a target or data', () => {
    expect(() =>
      parseRouteAnswer({
        data: {
          ...answer.data,
          route: {
            ...answer.data.route,
            transactionRequest: { to: router, target: router, data: '', value: '0' },
          },
        },
      }),
    ).toThrow('Invalid route: missing transactionRequest target/data')
  })
})

describe('buildRoute', () => {
  const input: RouteInput = {
    fromChain: 43114,
    toChain: 8453,
    fromToken: nativeTokenAddress.toLowerCase(),
    toToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    fromAmount: 10n,
    fromAddress: `0x${'d'.repeat(40)}`,
    toAddress: `0x${'e'.repeat(40)}`,
    linkId: 'link-1',
  }

  function fakeClient(handler: (path: string) => Response) {
    const calls: { method: string; path: string; body: unknown }[] = []
    const client = createApiClient({
      baseUrl: 'http://test',
      fetch: async (request, init) => {
        const path = String(request).replace('http://test', '')
        const method = init?.method ?? 'GET'
        if (path !== '/health') {
          calls.push({
            method,
            path,
            body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
          })
        }
        return handler(path)
      },
      readCookies: () => 'csrf_token=t',
      isOffline: () => false,
    })
    return { client, calls }
  }
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

  it('posts the route to the provider GET /api/config names', async () => {
    const { client, calls } = fakeClient((path) =>
      path === '/api/config' ? json({ data: { routingProvider: 'squid' } }) : json(answer),
    )
    const getProvider = createRoutingProviderSource(client)
    const route = await buildRoute(input, new AbortController().signal, client, getProvider)
    await buildRoute(input, new AbortController().signal, client, getProvider)
    expect(route.intentId).toBe(`0x${'1'.repeat(64)}`)
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /api/config',
      'POST /api/squid/route',
      'POST /api/squid/route',
    ])
    expect(calls[1]?.body).toEqual({
      fromChain: 43114,
      toChain: 8453,
      fromToken: input.fromToken,
      toToken: input.toToken,
      fromAmount: '10',
      fromAddress: input.fromAddress,
      toAddress: input.toAddress,
      slippage: 1,
      linkId: 'link-1',
    })
  })

  it('asks for exact output with toAmount (no fromAmount) and names the invoice paid', async () => {
    const { client, calls } = fakeClient(() => json(answer))
    const { fromAmount: _entered, ...rest } = input
    await buildRoute(
      { ...rest, toAmount: 12_500_000n, invoiceId: 'inv_AAAAAAAAAAAAAAAAAAAAAA' },
      new AbortController().signal,
      client,
      async () => 'local',
    )
    expect(calls[0]?.body).toEqual({
      fromChain: 43114,
      toChain: 8453,
      fromToken: input.fromToken,
      toToken: input.toToken,
      toAmount: '12500000',
      fromAddress: input.fromAddress,
      toAddress: input.toAddress,
      slippage: 1,
      linkId: 'link-1',
      invoiceId: 'inv_AAAAAAAAAAAAAAAAAAAAAA',
    })
  })

  it("fails with 'Failed to build route' when the provider's name cannot be loaded, then recovers", async () => {
    let isConfigDown = true
    const { client, calls } = fakeClient((path) => {
      if (path !== '/api/config') return json(answer)
      return isConfigDown
        ? json({ error: { code: 'INTERNAL', message: 'Something went wrong.' } }, 500)
        : json({ data: { routingProvider: 'local' } })
    })
    const getProvider = createRoutingProviderSource(client)
    const failure = await buildRoute(input, new AbortController().signal, client, getProvider).catch(
      (error: unknown) => error,
    )
    expect(describeRouteError(failure)).toBe('Failed to build route')
    expect(calls.map((call) => call.path)).toEqual(['/api/config'])

    isConfigDown = false
    await buildRoute(input, new AbortController().signal, client, getProvider)
    expect(calls.map((call) => call.path)).toEqual(['/api/config', '/api/config', '/api/local/route'])
  })
})

describe('buildRoute reads the answer as docs/api.md#client-tolerance allows', () => {
  const input: RouteInput = {
    fromChain: 8453,
    toChain: 8453,
    fromToken: nativeTokenAddress,
    toToken: nativeTokenAddress,
    fromAmount: 10n,
    fromAddress: `0x${'d'.repeat(40)}`,
    toAddress: `0x${'c'.repeat(40)}`,
    linkId: 'link-1',
  }
  const clientAnswering = (body: unknown) =>
    createApiClient({
      baseUrl: 'http://test',
      fetch: async () =>
        new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } }),
      readCookies: () => 'csrf_token=t',
      isOffline: () => false,
    })
  const build = (body: unknown) =>
    buildRoute(input, new AbortController().signal, clientAnswering(body), async () => 'local')

  it("shows a route without a transaction request as 'Invalid route: missing transactionRequest target/data'", async () => {
    const { transactionRequest: _left, ...route } = answer.data.route
    const failure = await build({ data: { ...answer.data, route } }).catch((error: unknown) => error)
    expect(describeRouteError(failure)).toBe('Invalid route: missing transactionRequest target/data')
  })

  it('sends to the target when the transaction request names only target', async () => {
    const { to: _to, ...onlyTarget } = answer.data.route.transactionRequest
    const route = await build({
      data: { ...answer.data, route: { ...answer.data.route, transactionRequest: onlyTarget } },
    })
    expect(toWalletTransaction(route.route.transactionRequest).to).toBe(router)
  })
})

describe('selectSpender', () => {
  it("prefers the API spender, then to, then the source chain record's router, multicall, coral multicall", () => {
    const transactionRequest = { to: router, target: router, data: '0x', value: '0' }
    const noTarget = { ...transactionRequest, to: '0xnope' }
    const other = `0x${'c'.repeat(40)}` as const
    const multicall = `0x${'d'.repeat(40)}` as const
    const coral = `0x${'e'.repeat(40)}` as const
    const contracts = { router: other, multicall, coralMulticall: coral }
    expect(selectSpender({ spender: other, transactionRequest }, contracts)).toBe(other)
    expect(selectSpender({ spender: null, transactionRequest }, contracts)).toBe(router)
    expect(selectSpender({ spender: null, transactionRequest: noTarget }, contracts)).toBe(other)
    expect(
      selectSpender({ spender: null, transactionRequest: noTarget }, { multicall, coralMulticall: coral }),
    ).toBe(multicall)
    expect(selectSpender({ spender: null, transactionRequest: noTarget }, { coralMulticall: coral })).toBe(
      coral,
    )
    expect(selectSpender({ spender: null, transactionRequest: noTarget }, { router: '0x12' })).toBeNull()
    expect(selectSpender({ spender: null, transactionRequest: noTarget })).toBeNull()
  })
})

describe('createRouteScheduler', () => {
  const input: RouteInput = {
    fromChain: 8453,
    toChain: 8453,
    fromToken: nativeTokenAddress.toLowerCase(),
    toToken: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    fromAmount: 1n,
    fromAddress: `0x${'d'.repeat(40)}`,
    toAddress: `0x${'e'.repeat(40)}`,
  }
  const result = parseRouteAnswer(answer)

  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('builds 250 ms after the last change, aborting the request it replaces', async () => {
    const states: RouteState[] = []
    const signals: AbortSignal[] = []
    const build = vi.fn((_input: RouteInput, signal: AbortSignal) => {
      signals.push(signal)
      return new Promise<RouteResult>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        setTimeout(() => resolve(result), 100)
      })
    })
    const scheduler = createRouteScheduler({ build, onState: (state) => states.push(state) })
    scheduler.update(input)
    await vi.advanceTimersByTimeAsync(200)
    scheduler.update({ ...input, fromAmount: 2n })
    await vi.advanceTimersByTimeAsync(249)
    expect(build).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(build).toHaveBeenCalledTimes(1)
    expect(states.map((state) => state.status)).toEqual(['building'])
    scheduler.update({ ...input, fromAmount: 3n })
    await vi.advanceTimersByTimeAsync(250)
    expect(signals[0]?.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(100)
    // The aborted build left no error; the last one is ready for the last input.
    expect(states.map((state) => state.status)).toEqual(['building', 'building', 'ready'])
    expect(build.mock.calls[1]?.[0].fromAmount).toBe(3n)
  })

  it('goes idle when an input is missing and reports a failure', async () => {
    const states: RouteState[] = []
    const scheduler = createRouteScheduler({
      build: () => Promise.reject(new Error('No liquidity for this pair.')),
      onState: (state) => states.push(state),
    })
    scheduler.update(input)
    await vi.advanceTimersByTimeAsync(250)
    expect(states.at(-1)).toMatchObject({ status: 'error', message: 'No liquidity for this pair.' })
    scheduler.update(null)
    expect(states.at(-1)).toEqual({ status: 'idle' })
  })

  it('rebuilds the same input at once', async () => {
    const build = vi.fn(() => Promise.resolve(result))
    const scheduler = createRouteScheduler({ build, onState: () => undefined })
    scheduler.update(input)
    await vi.advanceTimersByTimeAsync(250)
    scheduler.rebuild()
    expect(build).toHaveBeenCalledTimes(2)
    scheduler.dispose()
  })
})
