import { describe, expect, it } from 'vitest'
import {
  formatCountdown,
  getEstimatedSeconds,
  getProgressPercent,
  getRemainingSeconds,
  getStepProgress,
} from './payment-progress'

const steps = (...statuses: ('ok' | 'fail' | 'pending')[]) => statuses.map((status) => ({ status }))

describe('progress percent', () => {
  it('starts at 6 before any record', () => {
    expect(getProgressPercent(null, [])).toBe(6)
  })

  it('is at least 20 when submitted and 60 when bridging', () => {
    expect(getProgressPercent('submitted', [])).toBe(20)
    expect(getProgressPercent('bridging', steps('pending', 'pending', 'pending'))).toBe(60)
    expect(getProgressPercent('bridging', steps('ok', 'ok', 'pending'))).toBe(78)
  })

  it('is 100 on success and counts only completed steps on failure', () => {
    expect(getProgressPercent('success', steps('pending'))).toBe(100)
    expect(getProgressPercent('failed', steps('ok', 'fail'))).toBe(50)
    expect(getProgressPercent('failed', steps('fail'))).toBe(6)
  })

  it('gives 10 without steps and clamps to 6..100', () => {
    expect(getStepProgress([])).toBe(10)
    expect(
      getStepProgress(steps('pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending')),
    ).toBe(6)
    expect(getStepProgress(steps('ok', 'ok'))).toBe(100)
  })
})

describe('remaining time', () => {
  it('sums the step estimates (90 s without steps)', () => {
    expect(getEstimatedSeconds([])).toBe(90)
    expect(getEstimatedSeconds([{ kind: 'swap' }, { kind: 'bridge' }, { kind: 'transfer' }])).toBe(240)
    expect(getEstimatedSeconds([{ kind: 'other' }])).toBe(30)
  })

  it('subtracts the time since creation, floored at 0', () => {
    expect(getRemainingSeconds([{ kind: 'transfer' }], 0, 10_500)).toBe(35)
    expect(getRemainingSeconds([{ kind: 'transfer' }], 0, 100_000)).toBe(0)
  })

  it('formats minutes and seconds', () => {
    expect(formatCountdown(60)).toBe('1:00')
    expect(formatCountdown(9)).toBe('0:09')
    expect(formatCountdown(240, true)).toBe('04:00')
    expect(formatCountdown(-3)).toBe('0:00')
  })
})
