import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { startEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { type RunningPostgres, startPostgres } from '@quicklinks/runtime/test/start-postgres'
import { startRedis } from '@quicklinks/runtime/test/start-redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listChildProcesses } from './stack-process.ts'

/**
 * `npm run serve`, the production start, as an operator meets it: it names every missing setting
 * and stops; given them, it runs the app server alone on a real Postgres and Redis (no devnet, no
 * dev routes) and a SIGTERM ends it with 0.
 */

const masterKey = '6f'.repeat(32)

describe('npm run serve', () => {
  it('refuses to start without the production settings, naming each one', async () => {
    const serve = startEntryPoint('scripts/serve.mjs', { HOME: tmpdir(), SIGNER_MASTER_KEY: masterKey })
    expect(await serve.exited).toBe(1)
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_ORIGIN', 'FRAMES_ORIGIN', 'SMTP_URL']) {
      expect(serve.output()).toContain(`${name}: required in production`)
    }
    expect(serve.output()).toContain('RPC_URL_<chainId>: required in production')
    expect(serve.output()).not.toContain('listening')
  })

  it('refuses dev mode', async () => {
    const serve = startEntryPoint('scripts/serve.mjs', { DEV_MODE: 'true' })
    expect(await serve.exited).toBe(1)
    expect(serve.output()).toContain('DEV_MODE: production never runs in dev mode')
  })

  describe('with Postgres, Redis and an RPC URL', () => {
    let postgres: RunningPostgres
    let redis: Awaited<ReturnType<typeof startRedis>>
    // Stands in for a real chain's RPC: /ready asks every configured chain for its id.
    let chain: AnvilProcess
    const dataDir = mkdtempSync(join(tmpdir(), 'ql-serve-'))

    beforeAll(async () => {
      ;[postgres, redis, chain] = await Promise.all([
        startPostgres(),
        startRedis(),
        getFreePort().then((port) =>
          spawnAnvil({ host: '127.0.0.1', port, chainId: 8453, mnemonic: devnetMnemonic, accountCount: 1 }),
        ),
      ])
    }, 120_000)
    afterAll(async () => {
      await Promise.all([postgres?.stop(), redis?.stop(), chain?.stop()])
      rmSync(dataDir, { recursive: true, force: true })
    })

    it('runs the app server alone with no dev routes, and drains and exits 0 on SIGTERM', async () => {
      const [port, framesPort, signerPort, unusedPort] = await Promise.all([
        getFreePort(),
        getFreePort(),
        getFreePort(),
        getFreePort(),
      ])
      const origin = `http://127.0.0.1:${port}`
      const serve = startEntryPoint('scripts/serve.mjs', {
        PORT: String(port),
        FRAMES_PORT: String(framesPort),
        SIGNER_PORT: String(signerPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        PUBLIC_ORIGIN: origin,
        FRAMES_ORIGIN: `http://127.0.0.1:${framesPort}`,
        SIGNER_MASTER_KEY: masterKey,
        RPC_URL_8453: chain.rpcUrl,
        // Nothing listens here: the start must not depend on mail or Squid answering.
        SMTP_URL: `smtp://127.0.0.1:${unusedPort}`,
        ROUTING_PROVIDER: 'squid',
        SQUID_INTEGRATOR_ID: 'serve-test',
        SQUID_API_URL: `http://127.0.0.1:${unusedPort}`,
        LOG_LEVEL: 'info',
      })
      try {
        await serve.waitForOutput(/(Server ready)/)
        const ready = await fetch(`${origin}/ready`)
        expect(ready.status).toBe(200)
        expect(await ready.json()).toMatchObject({
          status: 'ready',
          checks: { database: { status: 'ok' }, 'chain 8453': { status: 'ok' } },
        })
        const page = await fetch(`${origin}/`)
        expect(page.status).toBe(200)
        expect(await page.text()).toContain('<div id="root"')
        // No dev routes: the mailbox that shows sign-in codes is not there.
        expect((await fetch(`${origin}/api/dev/mail`)).status).toBe(404)
        // No devnet: the server is the only process under `serve` (no anvil beside it).
        const serveChildren = listChildProcesses(serve.child.pid ?? 0)
        expect(serveChildren).toHaveLength(1)
        const serverDescendants = listChildProcesses(serveChildren[0]?.pid ?? 0).map((child) => child.command)
        expect(serverDescendants.filter((command) => command.includes('anvil'))).toEqual([])
        expect(serve.output()).toContain('"devMode":false')

        serve.child.kill('SIGTERM')
        expect(await serve.exited).toBe(0)
      } finally {
        serve.child.kill('SIGKILL')
      }
    })
  })
})
