import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * `npm start`'s stack (scripts/stack.ts) as a supervisor sees it: when the app server dies, the
 * stack stops the devnet and exits non-zero within 5 s; SIGTERM stops everything and exits 0. Own
 * ports (3600-3602, 2725, anvil 9645-9647), so it runs beside a developer's stack and the e2e one.
 */

const repoRoot = resolve(import.meta.dirname, '..')
const appPort = 3600
const devnetBasePort = 9645
const ports = [appPort, appPort + 1, appPort + 2, devnetBasePort, devnetBasePort + 1, devnetBasePort + 2]
const dataDir = mkdtempSync(join(tmpdir(), 'ql-stack-'))

afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

type Stack = {
  child: ChildProcess
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves when the stack prints its 'running' banner; rejects if it exits first. */
  banner: Promise<void>
  /** The end of what the stack printed, for a failure's message. */
  tail(): string
}

function startStack(): Stack {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/stack.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(appPort),
      FRAMES_PORT: String(appPort + 1),
      SIGNER_PORT: String(appPort + 2),
      SMTP_PORT: '2725',
      DEVNET_BASE_PORT: String(devnetBasePort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  })
  // Drained so a full pipe never blocks the stack; kept for a failure's message.
  let output = ''
  let onBanner: () => void = () => {}
  const banner = new Promise<void>((resolve, reject) => {
    onBanner = resolve
    child.once('exit', () => reject(new Error(`the stack exited while starting:\n${output.slice(-4000)}`)))
  })
  // Handled here too: a stack that exits after its banner must not leave a stray rejection.
  banner.catch(() => {})
  const append = (chunk: Buffer) => {
    output += chunk.toString()
    if (output.includes('Quick Links is running')) onBanner()
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  )
  return { child, exited, banner, tail: () => output.slice(-4000) }
}

/** Resolves once the stack prints its banner, which it does after the app answered /health. */
async function waitForHealth(stack: Stack): Promise<void> {
  await stack.banner
  const health = await fetch(`http://127.0.0.1:${appPort}/health`)
  expect(health.status).toBe(200)
}

/** The stack's child processes (Linux /proc), with their command lines. */
function listChildren(pid: number): { pid: number; command: string }[] {
  const path = `/proc/${pid}/task/${pid}/children`
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((entry) => entry.length > 0)
    .map(Number)
    .map((child) => ({ pid: child, command: readCommand(child) }))
}

function readCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

async function expectNothingLeft(pids: number[]): Promise<void> {
  for (const pid of pids) expect(isAlive(pid), `process ${pid} (${readCommand(pid)}) still runs`).toBe(false)
  for (const port of ports) expect(await isListening(port), `port ${port} still listens`).toBe(false)
}

describe('npm start under a supervisor', () => {
  it('stops the devnet and exits non-zero within 5 s when the app server is killed', async () => {
    for (const port of ports)
      expect(await isListening(port), `port ${port} is taken before the test`).toBe(false)
    const stack = startStack()
    await waitForHealth(stack)
    const children = listChildren(stack.child.pid ?? 0)
    const server = children.find((child) => child.command.includes('apps/server/src/main.ts'))
    const anvils = children.filter((child) => child.command.includes('anvil'))
    expect(server).toBeDefined()
    expect(anvils).toHaveLength(3)

    const killedAt = Date.now()
    process.kill(server?.pid ?? 0, 'SIGKILL')
    const { code } = await stack.exited
    expect(Date.now() - killedAt).toBeLessThan(5_000)
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    await expectNothingLeft(children.map((child) => child.pid))
  })

  it('stops everything and exits 0 on SIGTERM', async () => {
    const stack = startStack()
    await waitForHealth(stack)
    const children = listChildren(stack.child.pid ?? 0)
    expect(children.length).toBeGreaterThanOrEqual(4)

    stack.child.kill('SIGTERM')
    const { code } = await stack.exited
    expect(code).toBe(0)
    await expectNothingLeft(children.map((child) => child.pid))
  })
})
