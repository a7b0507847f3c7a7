import { describe, expect, it } from 'vitest'
import { readStepStatus, readTransactionStatus } from './transaction-status.ts'

describe('readTransactionStatus', () => {
  it.each([
    ['failed_on_destination', 'failed'],
    ['ERROR', 'failed'],
    ['partial_success', 'failed'],
    ['refunded', 'failed'],
    ['refund', 'failed'],
    ['success', 'success'],
    ['completed', 'success'],
    ['done', 'success'],
    ['needs_gas', 'bridging'],
    ['ongoing', 'bridging'],
    ['pending', 'bridging'],
    ['confirming', 'bridging'],
    ['submitted', 'submitted'],
    ['created', 'submitted'],
    ['', 'submitted'],
    [null, 'submitted'],
    ['not_found', 'submitted'],
  ])('reads %s as %s', (raw, status) => {
    expect(readTransactionStatus(raw).status).toBe(status)
  })

  it('flags partial deliveries and refunds, which a payer must not read as success', () => {
    expect(readTransactionStatus('partial_success')).toEqual({
      status: 'failed',
      isPartial: true,
      isRefunded: false,
    })
    expect(readTransactionStatus('refunded')).toEqual({
      status: 'failed',
      isPartial: false,
      isRefunded: true,
    })
  })
})

describe('readStepStatus', () => {
  it.each([
    ['success', 'ok'],
    ['done', 'ok'],
    ['ok', 'ok'],
    ['failed', 'fail'],
    ['error', 'fail'],
    ['pending', 'pending'],
    ['', 'pending'],
  ])('reads %s as %s', (raw, status) => {
    expect(readStepStatus(raw)).toBe(status)
  })
})
