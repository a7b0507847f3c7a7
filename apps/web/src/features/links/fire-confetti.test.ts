import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const confetti = vi.fn()
vi.mock('canvas-confetti', () => ({ default: confetti }))

const { fireConfetti } = await import('./fire-confetti')

function preferReducedMotion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query.includes('reduce'),
  })) as typeof window.matchMedia
}

describe('fireConfetti', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    confetti.mockClear()
  })
  afterEach(() => vi.useRealTimers())

  it('bursts 100 particles at 0 ms, 100 at 250 ms and 150 at 500 ms', () => {
    preferReducedMotion(false)
    fireConfetti()
    vi.advanceTimersByTime(0)
    expect(confetti.mock.calls.map(([options]) => options.particleCount)).toEqual([100])
    vi.advanceTimersByTime(250)
    vi.advanceTimersByTime(250)
    expect(confetti.mock.calls.map(([options]) => options.particleCount)).toEqual([100, 100, 150])
    // The library's own spread (45), angle (90), ticks and origin: none is overridden.
    for (const [options] of confetti.mock.calls) {
      expect(Object.keys(options).sort()).toEqual(['disableForReducedMotion', 'particleCount', 'zIndex'])
    }
  })

  it('fires nothing for a user who prefers reduced motion', () => {
    preferReducedMotion(true)
    fireConfetti()
    vi.advanceTimersByTime(1000)
    expect(confetti).not.toHaveBeenCalled()
  })

  it('cancels the bursts not yet fired', () => {
    preferReducedMotion(false)
    const cancel = fireConfetti()
    vi.advanceTimersByTime(0)
    cancel()
    vi.advanceTimersByTime(1000)
    expect(confetti).toHaveBeenCalledTimes(1)
  })
})
