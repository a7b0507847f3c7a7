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
  /**
   * Does whatever is due now in one lane. Errors are logged by the runner, which carries on.
   * Resolves 'idle' when the round found nothing to do: the runner then lets the lane sleep longer
   * (see `StartWorkersOptions.idleIntervalMs`); anything else counts as a round that worked.
   */
  runOnce(lane: string): Promise<RoundOutcome | undefined>
  /** Gives back what the worker holds (a lock, a connection) once its last round has ended. */
  close?(): Promise<void>
}

/**
 * The idle lanes' longest sleep when none is configured: four intervals, at most 5 s (never below
 * the interval). A chain watcher that found no new block waits at most this long for the next look.
 */
export function defaultIdleIntervalMs(intervalMs: number): number {
  return Math.max(intervalMs, Math.min(4 * intervalMs, 5000))
}

/** What a round reports: 'idle' (nothing was due) or 'worked'. */
export type RoundOutcome = 'idle' | 'worked'

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
  /**
   * The longest sleep of a lane whose rounds keep finding nothing (default `intervalMs`: no
   * backoff). After each idle round in a row the sleep doubles, from `intervalMs` up to this; a
   * round that worked or a wake-up brings it back to `intervalMs` (docs/decisions/0035).
   */
  idleIntervalMs?: number
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
  /** Idle rounds in a row (0 after a round that worked or a wake-up). */
  idleRounds: number
  schedule(delayMs: number): void
}

/**
 * Runs every lane of every worker in its own loop: a round, then `intervalMs` of sleep (longer,
 * up to `idleIntervalMs`, while its rounds stay idle), until stopped. A failing round is logged
 * and retried next time; other loops are not affected. The lane list of each worker is refreshed
 * every `intervalMs`. Never throws.
 */
export function startWorkers(workers: readonly Worker[], options: StartWorkersOptions): RunningWorkers {
  let isStopped = false
  const loops = new Map<string, Loop>()
  const idleIntervalMs = Math.max(options.intervalMs, options.idleIntervalMs ?? options.intervalMs)
  // interval, interval (first idle round), 2×, 4×, … up to idleIntervalMs.
  const sleepAfter = (idleRounds: number): number =>
    idleRounds <= 1
      ? options.intervalMs
      : Math.min(idleIntervalMs, options.intervalMs * 2 ** (idleRounds - 1))
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
      idleRounds: 0,
      schedule: (delayMs) => {
        loop.timer = setTimeout(() => {
          loop.isRunning = true
          loop.isWoken = false
          loop.current = worker
            .runOnce(lane)
            .then(
              (outcome) => {
                loop.idleRounds = outcome === 'idle' ? loop.idleRounds + 1 : 0
              },
              (error: unknown) => {
                // A failed round is retried at the normal pace.
                loop.idleRounds = 0
                options.logger.warn(
                  { err: error, worker: worker.name, lane },
                  'Worker round failed; retrying next round',
                )
              },
            )
            .finally(() => {
              loop.isRunning = false
              options.onRoundEnd?.(worker.name, lane)
              if (loop.isWoken) loop.idleRounds = 0
              if (!isStopped && !loop.isStopped) loop.schedule(loop.isWoken ? 0 : sleepAfter(loop.idleRounds))
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
      loop.idleRounds = 0
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
