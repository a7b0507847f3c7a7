import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type RouteInput, toRouteResult } from './route-builder'
import { useRouteState } from './use-route-state'

const router = `0x${'b'.repeat(40)}`
const result = toRouteResult({
  intentId: '0x01',
  route: {
    transactionRequest: { to: router, target: router, data: '0x01', value: '0' },
    estimate: { fromAmount: '5', toAmount: '5', toAmountMin: '5', estimatedRouteDuration: 0, actions: [] },
    spender: null,
  },
})
const input: RouteInput = {
  fromChain: 8453,
  toChain: 8453,
  fromToken: router,
  toToken: router,
  fromAmount: 5n,
  fromAddress: router,
  toAddress: router,
}

describe('useRouteState', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('builds after the debounce, counts down from 1:00 and rebuilds at 0:00', async () => {
    const build = vi.fn(() => Promise.resolve(result))
    const { result: hook } = renderHook(({ active }) => useRouteState(active, input, build), {
      initialProps: { active: true },
    })
    expect(hook.current.route.status).toBe('idle')
    await act(() => vi.advanceTimersByTimeAsync(250))
    expect(hook.current.route.status).toBe('ready')
    expect(hook.current.secondsLeft).toBe(60)
    await act(() => vi.advanceTimersByTimeAsync(59_000))
    expect(hook.current.secondsLeft).toBe(1)
    expect(build).toHaveBeenCalledTimes(1)
    await act(() => vi.advanceTimersByTimeAsync(1000))
    expect(build).toHaveBeenCalledTimes(2)
    expect(hook.current.secondsLeft).toBe(60)
  })

  it('reads a route built for another input as building', async () => {
    const build = vi.fn(() => Promise.resolve(result))
    const { result: hook, rerender } = renderHook(
      ({ amount }) => useRouteState(true, { ...input, fromAmount: amount }, build),
      {
        initialProps: { amount: 5n },
      },
    )
    await act(() => vi.advanceTimersByTimeAsync(250))
    expect(hook.current.route.status).toBe('ready')
    rerender({ amount: 6n })
    expect(hook.current.route.status).toBe('building')
    await act(() => vi.advanceTimersByTimeAsync(250))
    expect(hook.current.route.status).toBe('ready')
    expect(build).toHaveBeenCalledTimes(2)
  })
})
