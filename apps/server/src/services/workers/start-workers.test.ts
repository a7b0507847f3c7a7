import { createLogger } from '@quicklinks/runtime/create-logger'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startWorkers, type Worker } from './start-workers.ts'

const logger = createLogger('silent')

/** A promise and the function that resolves it: a round that ends when the test says so. */
function createGate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {}
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

// The runner's loops sleep with setTimeout; fake timers let each test step through the rounds
// instead of waiting for them.
beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('startWorkers: one loop per worker lane', () => {
  it('a lane stuck in a long round does not hold up the other lanes or workers', async () => {
    const rounds: string[] = []
    const stuck = createGate()
    const relayer: Worker = {
      name: 'relayer',
      lanes: async () => ['8453', '43114'],
      runOnce: async (lane) => {
        rounds.push(`relayer:${lane}`)
        if (lane === '8453') await stuck.promise
      },
    }
    const tracker: Worker = { name: 'tracker', runOnce: async () => void rounds.push('tracker') }
    const running = startWorkers([relayer, tracker], { intervalMs: 10, logger })
    await vi.advanceTimersByTimeAsync(100)
    expect(rounds.filter((round) => round === 'relayer:43114').length).toBeGreaterThanOrEqual(3)
    expect(rounds.filter((round) => round === 'tracker').length).toBeGreaterThanOrEqual(3)
    expect(rounds.filter((round) => round === 'relayer:8453')).toHaveLength(1)
    stuck.open()
    await running.stop()
  })

  it('wake runs a sleeping lane at once, and a lane woken during its round runs again right after', async () => {
    let count = 0
    const inRound = createGate()
    const worker: Worker = {
      name: 'tracker',
      runOnce: async () => {
        count += 1
        if (count === 2) await inRound.promise
      },
    }
    const running = startWorkers([worker], { intervalMs: 60_000, logger })
    await vi.advanceTimersByTimeAsync(59_000)
    expect(count).toBe(1)
    running.wake('tracker', '')
    await vi.advanceTimersByTimeAsync(0)
    expect(count).toBe(2)
    running.wake('tracker', '')
    inRound.open()
    await vi.advanceTimersByTimeAsync(0)
    expect(count).toBe(3)
    running.wake('nobody', '')
    await running.stop()
  })

  it('a failing round is retried, and stop waits for the round in progress', async () => {
    let attempts = 0
    const longRound = createGate()
    let finished = false
    const worker: Worker = {
      name: 'flaky',
      runOnce: async () => {
        attempts += 1
        if (attempts < 3) throw new Error('RPC down')
        await longRound.promise
        finished = true
      },
    }
    const running = startWorkers([worker], { intervalMs: 5, logger })
    await vi.advanceTimersByTimeAsync(100)
    expect(attempts).toBe(3)
    let isStopped = false
    const stopping = running.stop().then(() => (isStopped = true))
    await vi.advanceTimersByTimeAsync(100)
    expect(isStopped).toBe(false)
    longRound.open()
    await stopping
    expect(finished).toBe(true)
    expect(attempts).toBe(3)
  })

  it('reports the end of every round, failed ones too, with its worker and lane', async () => {
    let attempts = 0
    const ended: string[] = []
    const worker: Worker = {
      name: 'relayer',
      lanes: async () => ['8453'],
      runOnce: async () => {
        attempts += 1
        if (attempts === 1) throw new Error('RPC down')
      },
    }
    const running = startWorkers([worker], {
      intervalMs: 10,
      logger,
      onRoundEnd: (workerName, lane) => void ended.push(`${workerName}:${lane}:${attempts}`),
    })
    await vi.advanceTimersByTimeAsync(25)
    await running.stop()
    expect(ended).toEqual(['relayer:8453:1', 'relayer:8453:2', 'relayer:8453:3'])
  })

  it('an idle lane sleeps longer each round, up to idleIntervalMs; work or a wake-up brings back the interval', async () => {
    const roundsAt: number[] = []
    let isIdle = true
    const worker: Worker = {
      name: 'deposits',
      runOnce: async () => {
        roundsAt.push(Date.now())
        return isIdle ? 'idle' : 'worked'
      },
    }
    const running = startWorkers([worker], { intervalMs: 100, idleIntervalMs: 400, logger })
    await vi.advanceTimersByTimeAsync(2000)
    // The first round, then sleeps of 100 (after the first idle round), 200, 400, 400, …
    const first = roundsAt[0] ?? 0
    expect(roundsAt.slice(0, 6).map((at) => at - first)).toEqual([0, 100, 300, 700, 1100, 1500])
    // A wake-up runs the lane now and the next sleeps are short again.
    running.wake('deposits', '')
    await vi.advanceTimersByTimeAsync(0)
    const wokenAt = Date.now()
    expect(roundsAt.at(-1)).toBe(wokenAt)
    await vi.advanceTimersByTimeAsync(300)
    expect(roundsAt.filter((at) => at > wokenAt).map((at) => at - wokenAt)).toEqual([100, 300])
    // A round that worked: the next sleep is the interval again, and stays so while rounds work.
    isIdle = false
    await vi.advanceTimersByTimeAsync(400)
    const workedAt = Date.now()
    await vi.advanceTimersByTimeAsync(500)
    expect(roundsAt.filter((at) => at > workedAt)).toHaveLength(5)
    await running.stop()
  })

  it('without idleIntervalMs, idle rounds keep the interval', async () => {
    let count = 0
    const worker: Worker = {
      name: 'tracker',
      runOnce: async () => {
        count += 1
        return 'idle'
      },
    }
    const running = startWorkers([worker], { intervalMs: 100, logger })
    await vi.advanceTimersByTimeAsync(1050)
    expect(count).toBe(11)
    await running.stop()
  })
})
