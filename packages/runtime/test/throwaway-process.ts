import type { ChildProcess } from 'node:child_process'
import { accessSync, constants, rmSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * The first of `explicit` (an override such as REDIS_SERVER_BIN), `name` on the PATH, then
 * `fallbacks`, that is an executable file; undefined when none is.
 */
export function findExecutable(
  name: string,
  explicit: string | undefined,
  fallbacks: readonly string[],
): string | undefined {
  const candidates = [
    explicit,
    ...(process.env.PATH ?? '').split(delimiter).map((directory) => join(directory, name)),
    ...fallbacks,
  ]
  return candidates.find((candidate) => {
    if (!candidate) return false
    try {
      accessSync(candidate, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/**
 * Waits for a throw-away server (`child`, keeping its files in `directory`) to be ready; if it is
 * not, kills it, deletes the directory and rethrows. Resolves with its stop: SIGTERM, SIGKILL after
 * 5 s, then the directory deleted; safe to call twice.
 */
export async function adoptThrowawayProcess(
  child: ChildProcess,
  directory: string,
  ready: Promise<void>,
): Promise<() => Promise<void>> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await ready
  } catch (error) {
    child.kill('SIGKILL')
    rmSync(directory, { recursive: true, force: true })
    throw error
  }
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(killer)
    }
    rmSync(directory, { recursive: true, force: true })
  }
}
