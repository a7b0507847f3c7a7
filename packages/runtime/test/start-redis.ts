import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getFreePort } from './get-free-port.ts'
import { adoptThrowawayProcess, findExecutable } from './throwaway-process.ts'

export type RunningRedis = {
  /** redis://127.0.0.1:<port> (no password, loopback only). */
  url: string
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and deletes its directory; idempotent. */
  stop(): Promise<void>
}

/** Resolves once the server logs that it accepts connections; rejects with its output if it exits. */
function waitUntilReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => {
      finish(new Error(`redis-server did not start within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) finish()
    }
    const onExit = (code: number | null) => finish(new Error(`redis-server exited (${code}):\n${output}`))
    const finish = (error?: Error) => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.off('exit', onExit)
      // Keep draining its output so a full pipe never blocks the server.
      child.stdout?.resume()
      if (error) reject(error)
      else resolve()
    }
    child.stdout?.on('data', onData)
    child.once('exit', onExit)
  })
}

/**
 * Starts a throw-away redis-server on a free loopback port, persisting nothing
 * (`--save '' --appendonly no`). Throws with the apt-get command when the binary is missing: a
 * missing Redis must fail the suite, never skip it.
 */
export async function startRedis(): Promise<RunningRedis> {
  const binary = findExecutable('redis-server', process.env.REDIS_SERVER_BIN, ['/usr/bin/redis-server'])
  if (binary === undefined) {
    throw new Error(
      'redis-server not found. Install it with:\n\n  apt-get update && apt-get install -y redis-server\n\n' +
        '(or set REDIS_SERVER_BIN to its path)',
    )
  }
  const directory = mkdtempSync(join(tmpdir(), 'ql-redis-'))
  const port = await getFreePort()
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const stop = await adoptThrowawayProcess(child, directory, waitUntilReady(child, 10_000))
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
  }
}
