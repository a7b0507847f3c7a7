import { describe, expect, it, vi } from 'vitest'
import { withTimeout } from './with-timeout.ts'

describe('withTimeout', () => {
  it('settles as the work does when it is first, and clears its timer', async () => {
    vi.useFakeTimers()
    try {
      await expect(withTimeout(Promise.resolve(7), 1_000, () => new Error('late'))).resolves.toBe(7)
      await expect(
        withTimeout(Promise.reject(new Error('broke')), 1_000, () => new Error('late')),
      ).rejects.toThrow('broke')
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects with the given error when the time runs out first', async () => {
    vi.useFakeTimers()
    try {
      const late = withTimeout(new Promise<number>(() => {}), 500, () => new Error('no answer within 500 ms'))
      const outcome = expect(late).rejects.toThrow('no answer within 500 ms')
      await vi.advanceTimersByTimeAsync(500)
      await outcome
    } finally {
      vi.useRealTimers()
    }
  })
})
