import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'
import { startEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { afterEach, describe, expect, it } from 'vitest'

const signerMainPath = join(repoRoot, 'apps', 'signer', 'src', 'main.ts')

const startSignerMain = (env: Record<string, string>) => startEntryPoint(signerMainPath, env)

describe('src/main.ts', () => {
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

  it("starts outside dev mode whatever the server's settings say (it parses none of them)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ql-signer-main-'))
    const signer = startSignerMain({
      SIGNER_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SIGNER_MASTER_KEY: '5e'.repeat(32),
      // The app server refuses each of these (apps/server/test/main.test.ts).
      ROUTING_PROVIDER: 'squid',
      RPC_URL_8453: 'ftp://nope',
      SPONSOR_POLICIES: '[{id: broken}]',
    })
    cleanups.push(() => {
      signer.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    })
    const url = await signer.waitForOutput(/Signer listening on (http:\/\/127\.0\.0\.1:\d+)/)
    expect((await fetch(`${url}/health`)).status).toBe(200)
    signer.child.kill('SIGTERM')
    expect(await signer.exited).toBe(0)
  }, 90_000)
})
