import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { resolve } from 'node:path'

// `npm start`'s stack (scripts/stack.ts) and its processes, as the tests and benches that start,
// kill and inspect it see them (Linux /proc).

const repoRoot = resolve(import.meta.dirname, '..')

export type StackPorts = {
  /** The app server; the frames and the standalone signer take the next two. */
  port: number
  smtpPort: number
  /** The three anvil chains take this port and the next two. */
  devnetBasePort: number
}

export type RunningStack = {
  child: ChildProcess
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves when the stack prints its 'running' banner (after the app answered /health); rejects if it exits first. */
  banner: Promise<void>
  /** The end of what the stack printed, for a failure's message. */
  tail(): string
}

/** Starts scripts/stack.ts on `ports` with its data in `dataDir`, logging at warn. */
export function spawnStack(ports: StackPorts, dataDir: string): RunningStack {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/stack.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(ports.port),
      FRAMES_PORT: String(ports.port + 1),
      SIGNER_PORT: String(ports.port + 2),
      SMTP_PORT: String(ports.smtpPort),
      DEVNET_BASE_PORT: String(ports.devnetBasePort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  })
  // Drained so a full pipe never blocks the stack; its end kept for a failure's message.
  let output = ''
  let onBanner: () => void = () => {}
  const banner = new Promise<void>((resolveBanner, reject) => {
    onBanner = resolveBanner
    child.once('exit', () => reject(new Error(`the stack exited while starting:\n${output.slice(-4000)}`)))
  })
  // Handled here too: a stack that exits after its banner must not leave a stray rejection.
  banner.catch(() => {})
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-16_000)
    if (output.includes('Quick Links is running')) onBanner()
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  )
  return { child, exited, banner, tail: () => output.slice(-4000) }
}

/** The child processes of `pid`, with their command lines; none when it has gone. */
export function listChildProcesses(pid: number): { pid: number; command: string }[] {
  const path = `/proc/${pid}/task/${pid}/children`
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((entry) => entry.length > 0)
    .map(Number)
    .map((child) => ({ pid: child, command: readProcessCommand(child) }))
}

/** A process's command line, arguments joined by spaces; empty when it has gone. */
export function readProcessCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function isPortListening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}
