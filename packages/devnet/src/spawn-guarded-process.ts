import { type ChildProcess, spawn } from 'node:child_process'

export type SpawnGuardedProcessOptions = {
  /** Short name used in messages and before its output lines ("anvil", "alto"). */
  name: string
  command: string
  args: string[]
  /** Environment of the process; defaults to ours. */
  env?: NodeJS.ProcessEnv
  /** Receives each non-empty line the process prints on stdout or stderr. */
  log?: (line: string) => void
}

export type GuardedProcess = {
  pid: number
  /** Resolves with a description of the exit ("alto exited with code 1") once the process is gone. */
  exited: Promise<string>
  /** Its last 20 output lines, indented and prefixed with its name, or '' when it printed nothing. */
  formatOutput(): string
  /** Stops the process (SIGTERM, then SIGKILL to its group after 15 s) and resolves once it has exited. */
  stop(): Promise<void>
}

/**
 * A tiny shell guard between us and the process. It holds the reading end of a pipe whose only
 * writer is this Node process: when we close it (`stop()`) or the kernel does (we died, even by
 * SIGKILL), `read` returns and the process gets SIGTERM, so nothing outlives its parent and keeps a
 * port. The process's own exit ends the guard too, so we notice crashes.
 */
const watchdogScript = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'child_pid=$!',
  '(read -r _ <&3; kill -TERM "$child_pid" 2>/dev/null) &',
  'watcher_pid=$!',
  'exec 3<&-',
  'wait "$child_pid"',
  'status=$?',
  'kill "$watcher_pid" 2>/dev/null',
  'exit "$status"',
].join('\n')

const stopTimeoutMs = 15_000
const keptOutputLines = 20

/**
 * Starts `command` behind the watchdog guard (directly on Windows, which has no `/bin/sh`), in its
 * own process group so a terminal's Ctrl-C reaches only us and we stop it in order. Never throws:
 * a command that cannot run shows up as `exited`.
 */
export function spawnGuardedProcess(options: SpawnGuardedProcessOptions): GuardedProcess {
  const log = options.log ?? (() => {})
  const child =
    process.platform === 'win32'
      ? spawn(options.command, options.args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env })
      : spawn(
          '/bin/sh',
          ['-c', watchdogScript, `${options.name}-watchdog`, options.command, ...options.args],
          {
            stdio: ['pipe', 'pipe', 'pipe'],
            detached: true,
            env: options.env,
          },
        )

  const output: string[] = []
  const onOutput = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue
      output.push(line)
      if (output.length > keptOutputLines) output.shift()
      log(line)
    }
  }
  child.stdout?.on('data', onOutput)
  child.stderr?.on('data', onOutput)

  let hasExited = false
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      hasExited = true
      resolve(`${options.name} exited with ${signal ? `signal ${signal}` : `code ${code}`}`)
    })
    // A process that never started emits 'error' and no 'exit'.
    child.once('error', (error) => {
      hasExited = true
      resolve(`could not run ${options.command}: ${error.message}`)
    })
  })
  // Closing our end of the guard's pipe after it died must not crash us with EPIPE.
  child.stdin?.on('error', () => {})

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (hasExited) return
      if (child.stdin) child.stdin.end()
      else child.kill('SIGTERM')
      const timer = setTimeout(() => killGroup(child), stopTimeoutMs)
      await exited
      clearTimeout(timer)
    })()
    return stopping
  }

  return {
    pid: child.pid ?? -1,
    exited,
    formatOutput: () =>
      output.length === 0 ? '' : `\n${output.map((line) => `  ${options.name}: ${line}`).join('\n')}`,
    stop,
  }
}

export type WaitUntilReadyOptions = {
  process: GuardedProcess
  /** Resolves `undefined` when ready, a reason when it answered wrongly (fatal), `null` when not yet. */
  check: () => Promise<string | undefined | null>
  timeoutMs: number
  /** Why it is not ready when the time is up. */
  timeoutReason: string
  /** Appended to the reason in the error, e.g. " (port 8545, chain 8453)". */
  context: string
}

/**
 * Polls `check` every 50 ms until it reports ready. When the process exits first, `check` reports
 * a fatal answer or the time runs out, stops the process and throws with the reason, `context` and
 * the process's last output lines.
 */
export async function waitUntilReady(options: WaitUntilReadyOptions): Promise<void> {
  const { process: guarded } = options
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    const failure = await Promise.race([guarded.exited, options.check()])
    if (failure === undefined) return
    if (failure !== null || Date.now() > deadline) {
      await guarded.stop()
      throw new Error(`${failure ?? options.timeoutReason}${options.context}${guarded.formatOutput()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    if (process.platform === 'win32') child.kill('SIGKILL')
    else process.kill(-child.pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}
