import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { repoRoot } from '../src/env.ts'

const signerMainPath = join(repoRoot, 'apps', 'server', 'src', 'signer-main.ts')

type RunningSignerMain = {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
  /** Resolves with the first group of `pattern` once the output matches it; rejects if the process exits first. */
  waitForOutput: (pattern: RegExp) => Promise<string>
}

function startSignerMain(env: Record<string, string>): RunningSignerMain {
  const child = spawn(process.execPath, ['--import', 'tsx', signerMainPath], {
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

describe('src/signer-main.ts', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
  })

  it('runs the signer on its own port over the same data dir, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ql-signer-main-'))
    const signer = startSignerMain({
      SIGNER_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SIGNER_MASTER_KEY: '5e'.repeat(32),
    })
    cleanups.push(() => {
      signer.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    })
    const url = await signer.waitForOutput(/Signer listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const health = await fetch(`${url}/health`)
    const cookie = /csrf_token=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? ''
    const config = await fetch(`${url}/signer/v1/signer-config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `csrf_token=${cookie}`, 'x-csrf-token': cookie },
      body: '{}',
    })
    expect(config.status).toBe(200)
    expect(((await config.json()) as { sessionExpirationSeconds: number }).sessionExpirationSeconds).toBe(900)
    expect((await fetch(`${url}/api/auth/me`)).status).toBe(404)
    signer.child.kill('SIGTERM')
    expect(await signer.exited).toBe(0)
  }, 90_000)
})
