import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'
import { startEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { defaultFramesDistDir } from '@quicklinks/signer/frames-server/build-frames-server'
import { afterEach, describe, expect, it } from 'vitest'

const mainPath = join(repoRoot, 'apps', 'server', 'src', 'main.ts')

const startMain = (env: Record<string, string>) => startEntryPoint(mainPath, env)

describe('src/main.ts', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
  })

  it('migrates, listens on an ephemeral port, serves, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ql-main-'))
    const server = startMain({
      PORT: '0',
      FRAMES_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SIGNER_MASTER_KEY: '5e'.repeat(32),
    })
    cleanups.push(() => {
      server.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    })
    const url = await server.waitForOutput(/Server listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    expect(health.headers.get('set-cookie')).toMatch(/^csrf_token=/)
    // The second listener: the signer frames origin, framed only by the app's origin.
    const framesUrl = await server.waitForOutput(/Signer frames listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const frame = await fetch(`${framesUrl}/auth-frame`)
    if (existsSync(join(defaultFramesDistDir, 'auth-frame.html'))) {
      expect(frame.status).toBe(200)
      expect(frame.headers.get('content-security-policy')).toContain('frame-ancestors http://localhost:')
    } else {
      expect(frame.status).toBe(503)
    }
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).toMatch(/Shutting down/)
  }, 90_000)

  it('refuses to start with an invalid environment, naming the variable', async () => {
    const server = startMain({ PORT: 'not-a-port', DEV_MODE: 'maybe' })
    cleanups.push(() => server.child.kill('SIGKILL'))
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(
      /Invalid environment:\n {2}PORT: .*\n {2}DEV_MODE: must be 'true' or 'false'/,
    )
  }, 30_000)

  it('refuses to start outside dev mode without SIGNER_MASTER_KEY', async () => {
    const server = startMain({ PORT: '0' })
    cleanups.push(() => server.child.kill('SIGKILL'))
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(/SIGNER_MASTER_KEY: required outside dev mode/)
  }, 30_000)

  it('refuses to start with ROUTING_PROVIDER=squid and no SQUID_INTEGRATOR_ID, naming it (the standalone signer starts)', async () => {
    const server = startMain({
      PORT: '0',
      SIGNER_MASTER_KEY: '5e'.repeat(32),
      ROUTING_PROVIDER: 'squid',
    })
    cleanups.push(() => server.child.kill('SIGKILL'))
    expect(await server.exited).toBe(1)
    expect(server.output()).toMatch(
      /Invalid environment:\n {2}SQUID_INTEGRATOR_ID: required when ROUTING_PROVIDER=squid\n/,
    )
  }, 30_000)
})
