import { describe, expect, it } from 'vitest'
import { createLogger } from '../../create-logger.ts'
import { startWorkers, type Worker } from './start-workers.ts'

const logger = createLogger('silent')

/** Resolves when `check` holds, polling every 5 ms; throws after 2 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition never held')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('startWorkers: one loop per worker lane', () => {
  it('a lane stuck in a long round does not hold up the other lanes or workers', async () => {
    const rounds: string[] = []
    let release: (() => void) | undefined
    const relayer: Worker = {
      name: 'relayer',
      lanes: async () => ['8453', '43114'],
      runOnce: async (lane) => {
        rounds.push(`relayer:${lane}`)
        if (lane === '8453') await new Promise<void>((resolve) => (release ??= resolve))
      },
    }
    const tracker: Worker = { name: 'tracker', runOnce: async () => void rounds.push('tracker') }
    const running = startWorkers([relayer, tracker], { intervalMs: 10, logger })
    await until(() => rounds.filter((round) => round === 'relayer:43114').length >= 3)
    await until(() => rounds.filter((round) => round === 'tracker').length >= 3)
    expect(rounds.filter((round) => round === 'relayer:8453')).toHaveLength(1)
    release?.()
    await running.stop()
  })

  it('wake runs a sleeping lane at once, and a lane woken during its round runs again right after', async () => {
    let count = 0
    let inRound: (() => void) | undefined
    const worker: Worker = {
      name: 'tracker',
      runOnce: async () => {
        count += 1
        if (count === 2) await new Promise<void>((resolve) => (inRound = resolve))
      },
    }
    const running = startWorkers([worker], { intervalMs: 60_000, logger })
    await until(() => count === 1)
    running.wake('tracker', '')
    await until(() => count === 2 && inRound !== undefined)
    running.wake('tracker', '')
    inRound?.()
    await until(() => count === 3)
    running.wake('nobody', '')
    await running.stop()
  })

  it('a failing round is retried, and stop waits for the round in progress', async () => {
    let attempts = 0
    let finished = false
    const worker: Worker = {
      name: 'flaky',
      runOnce: async () => {
        attempts += 1
        if (attempts < 3) throw new Error('RPC down')
        await new Promise((resolve) => setTimeout(resolve, 30))
        finished = true
      },
    }
    const running = startWorkers([worker], { intervalMs: 5, logger })
    await until(() => attempts >= 3)
    await running.stop()
    expect(finished).toBe(true)
  })
})
