import { type ChildProcess, spawn } from 'node:child_process'
import { repoRoot } from '../src/env.ts'

/** A server entry point (apps/server/src/main.ts, apps/signer/src/main.ts) running as a child process under test. */
export type RunningEntryPoint = {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
  /** Resolves with the first group of `pattern` once the output matches it; rejects if the process exits first. */
  waitForOutput: (pattern: RegExp) => Promise<string>
}

/** Starts `path` with tsx and only `env` (plus PATH), collecting its stdout and stderr. */
export function startEntryPoint(path: string, env: Record<string, string>): RunningEntryPoint {
  const child = spawn(process.execPath, ['--import', 'tsx', path], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const listeners = new Set<() => void>()
  const append = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  // Each chunk of output is checked as it arrives (the test's own time-out bounds the wait).
  const waitForOutput = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output)?.[1]
        if (match === undefined) return
        listeners.delete(check)
        resolve(match)
      }
      listeners.add(check)
      check()
      void exited.then((code) => reject(new Error(`exited with ${code} before ${pattern}:\n${output}`)))
    })
  return { child, output: () => output, exited, waitForOutput }
}
