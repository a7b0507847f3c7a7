import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '@quicklinks/runtime/env'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { type RunningEntryPoint, startEntryPoint } from '@quicklinks/runtime/test/start-entry-point'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PaymentDevnet, startPaymentDevnet } from './payment-test-kit.ts'
import { signInOverHttp } from './sign-in-over-http.ts'

/**
 * SIGTERM to the real server process (src/main.ts) while 100 link creations are in flight: every
 * request gets a definite answer (an answer, or a connection refused before anything was sent,
 * never a reset), the process exits 0, and every link it acknowledged is there after a restart.
 */

const mainPath = join(repoRoot, 'apps', 'server', 'src', 'main.ts')
const inFlight = 100

let devnet: PaymentDevnet
const dataDir = mkdtempSync(join(tmpdir(), 'ql-graceful-'))
beforeAll(async () => {
  devnet = await startPaymentDevnet()
}, 120_000)
afterAll(async () => {
  await devnet?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

function startServer(port: number): RunningEntryPoint {
  return startEntryPoint(mainPath, {
    PORT: String(port),
    FRAMES_PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEVNET_DEPLOYMENT_FILE: devnet.deploymentFile,
    SIGNER_MASTER_KEY: '5e'.repeat(32),
    RATE_LIMIT_MAX: '100000',
    // info: the listening line is what the test waits for.
    LOG_LEVEL: 'info',
  })
}

/** Resolves once the server logs that it listens (its own event, not a poll). */
async function waitUntilListening(server: RunningEntryPoint): Promise<void> {
  await server.waitForOutput(/(Server listening on) http/)
}

type Outcome = { status: number; id?: string } | { error: string }

describe('SIGTERM under load', () => {
  it('answers every in-flight link creation, exits 0, and keeps every acknowledged link', async () => {
    const port = await getFreePort()
    const origin = `http://127.0.0.1:${port}`
    const first = startServer(port)
    await waitUntilListening(first)
    const session = await signInOverHttp(origin)
    const usdc = devnet.token(8453, 'USDC')

    let firstAnswer: () => void = () => {}
    const answered = new Promise<void>((done) => {
      firstAnswer = done
    })
    const creations = Array.from({ length: inFlight }, async (_, index): Promise<Outcome> => {
      try {
        const response = await fetch(`${origin}/api/links`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-csrf-token': session.csrf,
            cookie: session.cookie,
          },
          body: JSON.stringify({
            alias: `Graceful ${index} ${Date.now()}`,
            receiver_address: session.address,
            chain: 'base',
            chain_id: 8453,
            token_name: 'USDC',
            token_address: usdc.toLowerCase(),
            idempotency_key: `graceful-${index}-${Date.now()}`,
          }),
        })
        firstAnswer()
        const body = (await response.json()) as { data?: { id: string } }
        return { status: response.status, ...(body.data?.id === undefined ? {} : { id: body.data.id }) }
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause
        return { error: cause?.code ?? cause?.message ?? String(error) }
      }
    })
    await answered
    first.child.kill('SIGTERM')
    const outcomes = await Promise.all(creations)
    expect(await first.exited, first.output()).toBe(0)

    const failures = outcomes.filter((outcome): outcome is { error: string } => 'error' in outcome)
    // Refused before anything was sent is definite; a reset or a socket closed mid-answer is not.
    expect(failures.filter((failure) => failure.error !== 'ECONNREFUSED')).toEqual([])
    const statuses = outcomes.flatMap((outcome) => ('status' in outcome ? [outcome.status] : []))
    expect(statuses.filter((status) => status !== 201 && status !== 200 && status !== 503)).toEqual([])
    const acknowledged = outcomes.flatMap((outcome) => ('id' in outcome && outcome.id ? [outcome.id] : []))
    expect(acknowledged.length).toBeGreaterThan(0)

    const second = startServer(port)
    try {
      await waitUntilListening(second)
      const list = await fetch(`${origin}/api/links`, { headers: { cookie: session.cookie } })
      expect(list.status).toBe(200)
      const stored = new Set(((await list.json()) as { data: { id: string }[] }).data.map((link) => link.id))
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([])
    } finally {
      second.child.kill('SIGTERM')
      await second.exited
    }
  }, 180_000)
})
