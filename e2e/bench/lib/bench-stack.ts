import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * The whole stack (`scripts/start.mjs`: build, devnet, server, web) for a browser bench, on its own
 * ports and data folder, started in its own process group so that stopping it stops every child.
 */

export type BenchStackOptions = {
  /** The app server's port; the signer frames take the next one. */
  port: number
  smtpPort: number
  /** The devnet's first anvil port (it takes three). */
  devnetBasePort: number
  /** Repo-relative data folder (PGlite, the devnet's state). */
  dataDir: string
}

export type BenchStack = { origin: string; stop: () => Promise<void> }

const repoRoot = resolve(import.meta.dirname, '..', '..', '..')

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok
  } catch {
    return false
  }
}

/**
 * Starts the stack and resolves once GET /health answers (up to 4 min: the first run builds and
 * deploys the devnet). Rejects when the port is taken or the stack exits or stays down; the last
 * lines of its output are in the error. Ctrl-C or SIGTERM stops it before the process exits.
 */
export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const origin = `http://localhost:${options.port}`
  if (await isUp(`${origin}/health`))
    throw new Error(`port ${options.port} is already in use; stop that server first`)
  console.log(`• Starting the bench stack on ${origin} (data in ${options.dataDir})…`)
  const output: string[] = []
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(options.port),
      FRAMES_PORT: String(options.port + 1),
      SMTP_PORT: String(options.smtpPort),
      DEVNET_BASE_PORT: String(options.devnetBasePort),
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
    },
  })
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString())
    if (output.length > 200) output.shift()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((done) => child.once('exit', done))
      // The group: start.mjs, the stack, the server and the anvils.
      process.kill(-child.pid, 'SIGTERM')
      const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    })()
    return stopping
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void stop().finally(() => process.exit(130))
    })
  }

  const deadline = Date.now() + 240_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    if (await isUp(`${origin}/health`)) return { origin, stop }
    await new Promise((done) => setTimeout(done, 500))
  }
  await stop()
  throw new Error(`the bench stack did not start:\n${output.join('').slice(-4000)}`)
}

/** A number from the environment variable `name`, else `fallback`; throws on a value that is not one. */
export function readNumberEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${raw}`)
  return value
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** Prints rows as a table of padded columns under `title`. */
export function printTable(title: string, rows: string[][]): void {
  const columns = Math.max(...rows.map((row) => row.length))
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  )
  console.log(`\n${title}\n`)
  for (const row of rows) {
    console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`)
  }
  console.log('')
}
