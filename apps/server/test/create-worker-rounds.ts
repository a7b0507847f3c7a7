/** Worker rounds as events a test awaits, instead of sleeping while the workers run. */
export type WorkerRounds = {
  /** Pass as `onWorkerRound` to buildTestApp (or `onRoundEnd` to startWorkers). */
  onWorkerRound: (workerName: string, lane: string) => void
  /** Resolves when the next round of `workerName` ends, in any lane. */
  next(workerName: string): Promise<void>
  /**
   * Resolves once every lane of `workerName` that has run so far has ended `count` more rounds:
   * whatever those rounds would do has been done.
   */
  settle(workerName: string, count: number): Promise<void>
}

type Waiter = { workerName: string; remaining: Map<string, number> | undefined; resolve: () => void }

/**
 * Counts the rounds of background workers (see `startWorkers`' `onRoundEnd`) and lets a test
 * await them: a poll that re-reads after each round, or "n more rounds changed nothing".
 */
export function createWorkerRounds(): WorkerRounds {
  const lanesSeen = new Map<string, Set<string>>()
  const waiters = new Set<Waiter>()
  return {
    onWorkerRound: (workerName, lane) => {
      const lanes = lanesSeen.get(workerName) ?? new Set<string>()
      lanes.add(lane)
      lanesSeen.set(workerName, lanes)
      for (const waiter of [...waiters]) {
        if (waiter.workerName !== workerName) continue
        const remaining = waiter.remaining
        if (remaining !== undefined) {
          const left = remaining.get(lane)
          if (left === undefined) continue
          if (left > 1) remaining.set(lane, left - 1)
          else remaining.delete(lane)
          if (remaining.size > 0) continue
        }
        waiters.delete(waiter)
        waiter.resolve()
      }
    },
    next: (workerName) =>
      new Promise((resolve) => {
        waiters.add({ workerName, remaining: undefined, resolve })
      }),
    settle: (workerName, count) =>
      new Promise((resolve, reject) => {
        const lanes = [...(lanesSeen.get(workerName) ?? [])]
        if (lanes.length === 0) {
          reject(new Error(`no round of ${workerName} has run yet`))
          return
        }
        waiters.add({ workerName, remaining: new Map(lanes.map((lane) => [lane, count])), resolve })
      }),
  }
}
