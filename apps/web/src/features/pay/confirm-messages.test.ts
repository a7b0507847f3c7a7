import { describe, expect, it } from 'vitest'
import {
  canConfirmPayment,
  describeRouteLine,
  getBlockingMessage,
  getConfirmMessages,
  isApprovalNeeded,
} from './confirm-messages'
import type { RouteState } from './route-builder'

const ready: RouteState = {
  status: 'ready',
  key: 'k',
  intentId: `0x${'1'.repeat(64)}`,
  route: {
    transactionRequest: {
      to: `0x${'a'.repeat(40)}`,
      target: `0x${'a'.repeat(40)}`,
      data: '0x12',
      value: '0',
    },
    estimate: { fromAmount: '5', toAmount: '5', toAmountMin: '5', estimatedRouteDuration: 0, actions: [] },
    spender: `0x${'a'.repeat(40)}`,
  },
}
const spender = `0x${'a'.repeat(40)}`
const base = { amount: 5n, balance: 10n, isNative: false, spender, route: ready }

describe('getConfirmMessages', () => {
  it('is empty when a token payment has a ready route and a spender', () => {
    expect(getConfirmMessages(base)).toEqual([])
  })

  it('names the amount and balance problems', () => {
    expect(getConfirmMessages({ ...base, amount: undefined })).toEqual(['Amount is invalid.'])
    expect(getConfirmMessages({ ...base, balance: 0n })).toEqual(['Insufficient balance.'])
    expect(getConfirmMessages({ ...base, amount: 11n })).toEqual(['Amount exceeds available balance.'])
  })

  it('asks for a spender only for a token', () => {
    expect(getConfirmMessages({ ...base, spender: null })).toEqual([
      'Missing Squid spender address for this route.',
    ])
    expect(getConfirmMessages({ ...base, spender: null, isNative: true })).toEqual([])
  })

  it('reports the route state', () => {
    expect(getConfirmMessages({ ...base, route: { status: 'idle' } })).toEqual([
      'Waiting for amount/token/chain…',
    ])
    expect(getConfirmMessages({ ...base, route: { status: 'building', key: 'k' } })).toEqual([
      'Building route…',
    ])
    expect(
      getConfirmMessages({ ...base, route: { status: 'error', key: 'k', message: 'No liquidity.' } }),
    ).toEqual(['No liquidity.'])
    expect(getConfirmMessages({ ...base, route: { status: 'error', key: 'k', message: '' } })).toEqual([
      'Route build failed.',
    ])
  })

  it('toasts only a message that is not progress', () => {
    expect(getBlockingMessage(['Building route…'])).toBeNull()
    expect(getBlockingMessage(['Waiting for amount/token/chain…', 'Insufficient balance.'])).toBe(
      'Insufficient balance.',
    )
  })
})

describe('canConfirmPayment', () => {
  const pending = { isApproving: false, isCheckingAllowance: false }

  it('needs an allowance that covers a token amount', () => {
    expect(canConfirmPayment({ ...base, ...pending, allowance: 4n })).toBe(false)
    expect(canConfirmPayment({ ...base, ...pending, allowance: 5n })).toBe(true)
    expect(canConfirmPayment({ ...base, ...pending, allowance: null })).toBe(false)
  })

  it('waits for an approval or an allowance read in flight', () => {
    expect(canConfirmPayment({ ...base, allowance: 5n, isApproving: true, isCheckingAllowance: false })).toBe(
      false,
    )
    expect(canConfirmPayment({ ...base, allowance: 5n, isApproving: false, isCheckingAllowance: true })).toBe(
      false,
    )
  })

  it('needs no allowance when the payment carries its approval (a batch or a permit), but still a ready route and no approval in flight', () => {
    const carried = { ...base, ...pending, allowance: 0n, isApprovalCarried: true }
    expect(canConfirmPayment(carried)).toBe(true)
    expect(canConfirmPayment({ ...carried, allowance: null, isCheckingAllowance: true })).toBe(true)
    expect(canConfirmPayment({ ...carried, isApproving: true })).toBe(false)
    expect(canConfirmPayment({ ...carried, route: { status: 'building', key: 'k' } })).toBe(false)
    expect(canConfirmPayment({ ...carried, isApprovalCarried: false })).toBe(false)
  })

  it('needs no allowance for the native token but a ready route', () => {
    const native = { ...base, isNative: true, spender: null, ...pending, allowance: null }
    expect(canConfirmPayment(native)).toBe(true)
    expect(canConfirmPayment({ ...native, route: { status: 'building', key: 'k' } })).toBe(false)
  })

  it('decides when an approval is needed', () => {
    expect(isApprovalNeeded(false, 5n, 4n)).toBe(true)
    expect(isApprovalNeeded(false, 5n, 5n)).toBe(false)
    expect(isApprovalNeeded(true, 5n, 0n)).toBe(false)
  })
})

describe('describeRouteLine', () => {
  it('words each route state', () => {
    expect(describeRouteLine({ status: 'building', key: 'k' })).toBe('Building route…')
    expect(describeRouteLine(ready)).toBe('Route ready ✓')
    expect(describeRouteLine({ status: 'error', key: 'k', message: 'No liquidity.' })).toBe(
      'Route error: No liquidity.',
    )
    expect(describeRouteLine({ status: 'error', key: 'k', message: '' })).toBe('Route error: Route failed')
  })
})
