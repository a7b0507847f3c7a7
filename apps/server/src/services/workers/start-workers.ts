import type { FastifyBaseLogger } from 'fastify'

/**
 * A background job. The runner gives each of its lanes (a chain id, say) a loop of its own, so a
 * slow chain or a long receipt wait in one lane never holds up another lane or another worker.
 * Within a lane, rounds never overlap.
 */
export type Worker = {
  readonly name: string
  /**
   * The lanes to run now, read again before every round of the first lane; a lane that appears
   * gets a loop, one that disappears stops after its round. Default: one lane, ''.
   */
  lanes?(): Promise<readonly string[]>
  /** Does whatever is due now in one lane. Errors are logged by the runner, which carries on. */
  runOnce(lane: string): Promise<void>
  /** Gives back what the worker holds (a lock, a connection) once its last round has ended. */
  close?(): Promise<void>
}

export type RunningWorkers = {
  /**
   * Runs a lane's next round now instead of after its sleep (or right after the round in progress):
   * something it waits for just happened. Unknown lanes are ignored.
   */
  wake(workerName: string, lane: string): void
  /** Stops scheduling and waits for every round in progress to end; safe to call twice. */
  stop(): Promise<void>
}

export type StartWorkersOptions = {
  intervalMs: number
  logger: FastifyBaseLogger
  /**
   * Called when a round of a lane has ended (failed rounds too), before the lane sleeps: tests
   * await rounds through it instead of sleeping.
   */
  onRoundEnd?: (workerName: string, lane: string) => void
}

type Loop = {
  timer: NodeJS.Timeout | undefined
  current: Promise<void>
  isStopped: boolean
  isRunning: boolean
  /** A wake-up came during a round: the next round starts without a sleep. */
  isWoken: boolean
  schedule(delayMs: number): void
}

/**
 * Runs every lane of every worker in its own loop: a round, then `intervalMs` of sleep, until
 * stopped. A failing round is logged and retried next time; other loops are not affected. The
 * lane list of each worker is refreshed every `intervalMs`. Never throws.
 */
export function startWorkers(workers: readonly Worker[], options: StartWorkersOptions): RunningWorkers {
  let isStopped = false
  const loops = new Map<string, Loop>()
  const refreshTimers = new Set<NodeJS.Timeout>()
  const refreshes = new Set<Promise<void>>()

  const startLoop = (worker: Worker, lane: string): void => {
    const key = `${worker.name}\u0000${lane}`
    if (loops.has(key)) return
    const loop: Loop = {
      timer: undefined,
      current: Promise.resolve(),
      isStopped: false,
      isRunning: false,
      isWoken: false,
      schedule: (delayMs) => {
        loop.timer = setTimeout(() => {
          loop.isRunning = true
          loop.isWoken = false
          loop.current = worker
            .runOnce(lane)
            .catch((error: unknown) => {
              options.logger.warn(
                { err: error, worker: worker.name, lane },
                'Worker round failed; retrying next round',
              )
            })
            .finally(() => {
              loop.isRunning = false
              options.onRoundEnd?.(worker.name, lane)
              if (!isStopped && !loop.isStopped) loop.schedule(loop.isWoken ? 0 : options.intervalMs)
            })
        }, delayMs)
      },
    }
    loops.set(key, loop)
    loop.schedule(0)
  }

  const stopLoop = async (key: string): Promise<void> => {
    const loop = loops.get(key)
    if (!loop) return
    loop.isStopped = true
    clearTimeout(loop.timer)
    loops.delete(key)
    await loop.current
  }

  const refreshLanes = async (worker: Worker): Promise<void> => {
    let lanes: readonly string[]
    try {
      lanes = worker.lanes ? await worker.lanes() : ['']
    } catch (error) {
      options.logger.warn({ err: error, worker: worker.name }, 'Worker lanes could not be read')
      return
    }
    if (isStopped) return
    for (const lane of lanes) startLoop(worker, lane)
    const prefix = `${worker.name}\u0000`
    for (const key of [...loops.keys()]) {
      if (key.startsWith(prefix) && !lanes.includes(key.slice(prefix.length))) void stopLoop(key)
    }
  }

  for (const worker of workers) {
    const refresh = (delayMs: number): void => {
      const timer = setTimeout(() => {
        refreshTimers.delete(timer)
        const running = refreshLanes(worker).finally(() => {
          refreshes.delete(running)
          if (!isStopped && worker.lanes) refresh(options.intervalMs)
        })
        refreshes.add(running)
      }, delayMs)
      refreshTimers.add(timer)
    }
    refresh(0)
  }

  let stopping: Promise<void> | undefined
  return {
    wake: (workerName, lane) => {
      const loop = loops.get(`${workerName}\u0000${lane}`)
      if (!loop || isStopped || loop.isStopped) return
      if (loop.isRunning) {
        loop.isWoken = true
        return
      }
      clearTimeout(loop.timer)
      loop.schedule(0)
    },
    stop: () => {
      stopping ??= (async () => {
        isStopped = true
        for (const timer of refreshTimers) clearTimeout(timer)
        await Promise.all(refreshes)
        await Promise.all([...loops.keys()].map(stopLoop))
        await Promise.all(
          workers.map((worker) =>
            worker.close?.().catch((error: unknown) => {
              options.logger.warn({ err: error, worker: worker.name }, 'Worker could not close')
            }),
          ),
        )
      })()
      return stopping
    },
  }
}
