import type { FastifyBaseLogger } from 'fastify'

/** A background job the runner calls every interval; one call at a time, never overlapping. */
export type Worker = {
  readonly name: string
  /** Does whatever is due now. Errors are logged by the runner, which carries on. */
  runOnce(): Promise<void>
}

export type RunningWorkers = {
  /** Stops scheduling and waits for the round in progress to end; safe to call twice. */
  stop(): Promise<void>
}

export type StartWorkersOptions = {
  intervalMs: number
  logger: FastifyBaseLogger
}

/**
 * Runs each worker in turn, then sleeps `intervalMs`, until stopped. A failing worker is logged
 * and retried next round; the others still run. Never throws.
 */
export function startWorkers(workers: readonly Worker[], options: StartWorkersOptions): RunningWorkers {
  let isStopped = false
  let timer: NodeJS.Timeout | undefined
  let current: Promise<void> = Promise.resolve()

  const runRound = async (): Promise<void> => {
    for (const worker of workers) {
      if (isStopped) return
      try {
        await worker.runOnce()
      } catch (error) {
        options.logger.warn({ err: error, worker: worker.name }, 'Worker round failed; retrying next round')
      }
    }
  }
  const schedule = (delayMs: number): void => {
    timer = setTimeout(() => {
      current = runRound().finally(() => {
        if (!isStopped) schedule(options.intervalMs)
      })
    }, delayMs)
  }
  schedule(0)

  let stopping: Promise<void> | undefined
  return {
    stop: () => {
      stopping ??= (async () => {
        isStopped = true
        clearTimeout(timer)
        await current
      })()
      return stopping
    },
  }
}
