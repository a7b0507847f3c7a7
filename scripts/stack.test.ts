import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  isPortListening,
  listChildProcesses,
  type RunningStack,
  readProcessCommand,
  spawnStack,
} from './stack-process.ts'

/**
 * `npm start`'s stack (scripts/stack.ts) as a supervisor sees it: when the app server dies, the
 * stack stops the devnet and exits non-zero within 5 s; SIGTERM stops everything and exits 0. Own
 * ports (3600-3603, 2725, anvil 9645-9647, bundlers 9675-9677), so it runs beside a developer's stack and the e2e one.
 */

const appPort = 3600
const devnetBasePort = 9645
// appPort + 3: the dev OIDC provider of social login, in the stack's own process.
const ports = [
  appPort,
  appPort + 1,
  appPort + 2,
  appPort + 3,
  devnetBasePort,
  devnetBasePort + 1,
  devnetBasePort + 2,
  // The chains' Alto bundlers (chain port + 30).
  devnetBasePort + 30,
  devnetBasePort + 31,
  devnetBasePort + 32,
]
const dataDir = mkdtempSync(join(tmpdir(), 'ql-stack-'))

afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const startStack = (): RunningStack => spawnStack({ port: appPort, smtpPort: 2725, devnetBasePort }, dataDir)

/** Resolves once the stack prints its banner, which it does after the app answered /health. */
async function waitForHealth(stack: RunningStack): Promise<void> {
  await stack.banner
  const health = await fetch(`http://127.0.0.1:${appPort}/health`)
  expect(health.status).toBe(200)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function expectNothingLeft(pids: number[]): Promise<void> {
  for (const pid of pids)
    expect(isAlive(pid), `process ${pid} (${readProcessCommand(pid)}) still runs`).toBe(false)
  for (const port of ports) expect(await isPortListening(port), `port ${port} still listens`).toBe(false)
}

describe('npm start under a supervisor', () => {
  it('stops the devnet and exits non-zero within 5 s when the app server is killed', async () => {
    for (const port of ports)
      expect(await isPortListening(port), `port ${port} is taken before the test`).toBe(false)
    const stack = startStack()
    await waitForHealth(stack)
    const children = listChildProcesses(stack.child.pid ?? 0)
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
    const children = listChildProcesses(stack.child.pid ?? 0)
    expect(children.length).toBeGreaterThanOrEqual(4)

    stack.child.kill('SIGTERM')
    const { code } = await stack.exited
    expect(code).toBe(0)
    await expectNothingLeft(children.map((child) => child.pid))
  })
})
