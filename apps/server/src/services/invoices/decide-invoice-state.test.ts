import { describe, expect, it } from 'vitest'
import { decideInvoiceState, getInvoiceBounds, type InvoiceFacts } from './decide-invoice-state.ts'

const expiresAt = new Date('2026-01-01T01:00:00Z')
const before = expiresAt.getTime() - 1
const after = expiresAt.getTime() + 1

function facts(overrides: Partial<InvoiceFacts>): InvoiceFacts {
  return {
    amountUnits: 10_000_000n,
    toleranceBps: 100,
    expiresAt,
    paidUnits: 0n,
    paidOnTimeUnits: 0n,
    isInFlight: false,
    hasRefund: false,
    nowMs: before,
    ...overrides,
  }
}

describe('decideInvoiceState', () => {
  it('bounds a 1 % tolerance at 9.9 and 10.1 of 10, rounding the lower bound up', () => {
    expect(getInvoiceBounds(10_000_000n, 100)).toEqual({ lower: 9_900_000n, upper: 10_100_000n })
    expect(getInvoiceBounds(3n, 5_000)).toEqual({ lower: 2n, upper: 4n })
    expect(getInvoiceBounds(5n, 0)).toEqual({ lower: 5n, upper: 5n })
  })

  it('answers each state from the paid amount, the clock, payments in flight and refunds', () => {
    const cases: [Partial<InvoiceFacts>, string][] = [
      [{}, 'open'],
      [{ isInFlight: true }, 'processing'],
      [{ paidUnits: 1n, paidOnTimeUnits: 1n }, 'open'],
      [{ paidUnits: 9_900_000n, paidOnTimeUnits: 9_900_000n }, 'paid'],
      [{ paidUnits: 10_100_000n, paidOnTimeUnits: 10_100_000n }, 'paid'],
      [{ paidUnits: 10_100_001n, paidOnTimeUnits: 10_100_001n }, 'paid_over'],
      [{ paidUnits: 9_899_999n, paidOnTimeUnits: 9_899_999n, nowMs: after }, 'underpaid'],
      [{ nowMs: after }, 'expired'],
      [{ paidUnits: 10_000_000n, paidOnTimeUnits: 5_000_000n, nowMs: after }, 'paid_late'],
      [{ hasRefund: true }, 'refunded'],
      [{ hasRefund: true, nowMs: after }, 'refunded'],
      [{ hasRefund: true, paidUnits: 5n, paidOnTimeUnits: 5n, nowMs: after }, 'underpaid'],
      [{ hasRefund: true, isInFlight: true }, 'processing'],
      [{ paidUnits: 10_000_000n, paidOnTimeUnits: 10_000_000n, isInFlight: true, nowMs: after }, 'paid'],
    ]
    for (const [overrides, state] of cases) {
      expect(
        decideInvoiceState(facts(overrides)),
        JSON.stringify(overrides, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
      ).toBe(state)
    }
  })
})
