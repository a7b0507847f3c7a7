import { createServer as createHttpServer } from 'node:http'
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, getSetCookie, type TestApp } from '../../test/build-test-app.ts'
import {
  type SmartAccountTestChain,
  startSmartAccountTestChain,
} from '../../test/start-smart-account-chain.ts'

describe('GET /health', () => {
  let testApp: TestApp | undefined
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('answers ok and sets a random csrf_token cookie readable by the page', async () => {
    testApp = await buildTestApp()
    const response = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
    const cookie = getSetCookie(response, 'csrf_token')
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' })
    expect(cookie?.httpOnly).toBeUndefined()
    expect(cookie?.secure).toBeUndefined()

    const other = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(getSetCookie(other, 'csrf_token')?.value).not.toBe(cookie?.value)
  })

  it('keeps an existing csrf_token cookie', async () => {
    testApp = await buildTestApp()
    const token = 'a'.repeat(43)
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      cookies: { csrf_token: token },
    })
    expect(response.statusCode).toBe(200)
    expect(getSetCookie(response, 'csrf_token')).toBeUndefined()
  })

  it('replaces a malformed csrf_token cookie', async () => {
    testApp = await buildTestApp()
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      cookies: { csrf_token: 'short' },
    })
    expect(getSetCookie(response, 'csrf_token')?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('marks the cookie Secure when the public origin is https', async () => {
    testApp = await buildTestApp({ publicOrigin: 'https://pay.example.com' })
    const response = await testApp.app.inject({ method: 'GET', url: '/health' })
    expect(getSetCookie(response, 'csrf_token')?.secure).toBe(true)
  })

  it('echoes a plain incoming x-request-id and replaces one that could forge log lines', async () => {
    testApp = await buildTestApp()
    const kept = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'lb-123.abc' },
    })
    expect(kept.headers['x-request-id']).toBe('lb-123.abc')
    // A write (or a refusal) is logged at info under the caller's id; a fast read only at debug.
    await testApp.app.inject({
      method: 'POST',
      url: '/api/links',
      headers: { 'x-request-id': 'lb-124.abc' },
    })
    expect(testApp.logs.filter((line) => line.msg === 'request completed').map((line) => line.reqId)).toEqual(
      ['lb-124.abc'],
    )

    const replaced = await testApp.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'x\n{"level":60}' },
    })
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})

/** A TCP server on a free loopback port that accepts connections and never replies. */
async function listenOnFreePort(): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('close', () => {
    for (const socket of sockets) socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return { server, port: address.port }
}

async function closeServer(server: Server): Promise<void> {
  server.emit('close')
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

/** A loopback port nothing listens on (connections are refused). */
async function getClosedPort(): Promise<number> {
  const { server, port } = await listenOnFreePort()
  await closeServer(server)
  return port
}

describe('GET /ready', () => {
  let testApp: TestApp | undefined
  let anvil: AnvilProcess
  beforeAll(async () => {
    anvil = await spawnAnvil({
      host: '127.0.0.1',
      port: await getClosedPort(),
      chainId: 31337,
      mnemonic: devnetMnemonic,
      accountCount: 1,
    })
  }, 60_000)
  afterAll(async () => {
    await anvil?.stop()
  })
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('answers 200 with each check when the database and every chain RPC answer, on GET and HEAD', async () => {
    testApp = await buildTestApp({ rpcUrls: { 31337: anvil.rpcUrl } })
    const response = await testApp.app.inject({ method: 'GET', url: '/ready' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      status: 'ready',
      checks: {
        database: { status: 'ok', ms: expect.any(Number) },
        'chain 31337': { status: 'ok', ms: expect.any(Number) },
      },
    })
    const head = await testApp.app.inject({ method: 'HEAD', url: '/ready' })
    expect(head.statusCode).toBe(200)
    expect(head.body).toBe('')
  })

  it('answers 503 naming the chain whose RPC is down or serves another chain, never its URL', async () => {
    const secretUrl = `http://127.0.0.1:${await getClosedPort()}/v2/secret-api-key`
    testApp = await buildTestApp({ rpcUrls: { 31337: anvil.rpcUrl, 8453: anvil.rpcUrl, 42161: secretUrl } })
    const response = await testApp.app.inject({ method: 'GET', url: '/ready' })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({
      status: 'not_ready',
      checks: {
        database: { status: 'ok', ms: expect.any(Number) },
        'chain 8453': {
          status: 'failed',
          ms: expect.any(Number),
          error: 'the RPC serves chain 31337, not 8453',
        },
        'chain 31337': { status: 'ok', ms: expect.any(Number) },
        'chain 42161': { status: 'failed', ms: expect.any(Number), error: 'the RPC cannot be reached' },
      },
    })
    expect(response.body).not.toContain('secret-api-key')
    expect((await testApp.app.inject({ method: 'HEAD', url: '/ready' })).statusCode).toBe(503)
    // Liveness is another question: the process is up.
    expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
  })

  it('gives up on an RPC that never answers after 2 s', async () => {
    const { server, port } = await listenOnFreePort()
    try {
      testApp = await buildTestApp({ rpcUrls: { 8453: `http://127.0.0.1:${port}` } })
      const startedAt = performance.now()
      const response = await testApp.app.inject({ method: 'GET', url: '/ready' })
      expect(performance.now() - startedAt).toBeLessThan(5_000)
      expect(response.statusCode).toBe(503)
      expect(response.json().checks['chain 8453']).toEqual({
        status: 'failed',
        ms: expect.any(Number),
        error: 'no answer within 2000 ms',
      })
    } finally {
      await closeServer(server)
    }
  })
  it('asks the Solana node of SOLANA_RPC_URL for getHealth, and names it when it is not "ok"', async () => {
    let health: unknown = 'ok'
    const node = createHttpServer((request, response) => {
      request.resume()
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            ...(health === 'ok' ? { result: 'ok' } : { error: health }),
          }),
        )
      })
    })
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    const { port } = node.address() as AddressInfo
    try {
      testApp = await buildTestApp({ solanaRpcUrl: `http://127.0.0.1:${port}/secret-api-key` })
      const ready = await testApp.app.inject({ method: 'GET', url: '/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json().checks.solana).toEqual({ status: 'ok', ms: expect.any(Number) })
      await testApp.close()
      // A node that is behind answers getHealth with an error.
      health = { code: -32005, message: 'Node is behind by 42 slots' }
      testApp = await buildTestApp({ solanaRpcUrl: `http://127.0.0.1:${port}/secret-api-key` })
      const behind = await testApp.app.inject({ method: 'GET', url: '/ready' })
      expect(behind.statusCode).toBe(503)
      expect(behind.json().checks.solana).toEqual({
        status: 'failed',
        ms: expect.any(Number),
        error: 'the Solana node is not healthy (getHealth did not answer "ok")',
      })
      expect(behind.body).not.toContain('secret-api-key')
    } finally {
      await new Promise<void>((resolve) => node.close(() => resolve()))
    }
  })
})

describe('GET /ready with BUNDLER_URL_<chainId>', () => {
  let testApp: TestApp | undefined
  let chain: SmartAccountTestChain
  beforeAll(async () => {
    chain = await startSmartAccountTestChain({ withBundler: true })
  }, 120_000)
  afterAll(async () => {
    await chain?.stop()
  })
  afterEach(async () => {
    await testApp?.close()
    testApp = undefined
  })

  it('asks each bundler for its chain and EntryPoint v0.8: Alto on the devnet chain is ready', async () => {
    testApp = await buildTestApp({
      rpcUrls: { 8453: chain.rpcUrl },
      bundlerUrls: { 8453: chain.bundlerUrl ?? '' },
    })
    const response = await testApp.app.inject({ method: 'GET', url: '/ready' })
    expect(response.statusCode).toBe(200)
    expect(response.json().checks).toEqual({
      database: { status: 'ok', ms: expect.any(Number) },
      'chain 8453': { status: 'ok', ms: expect.any(Number) },
      'bundler 8453': { status: 'ok', ms: expect.any(Number) },
    })
  })

  it('names a bundler of another chain, a node that is no bundler and one that is down, never their URLs', async () => {
    const closed = `http://127.0.0.1:${await getClosedPort()}/rpc/secret-api-key`
    testApp = await buildTestApp({
      rpcUrls: { 8453: chain.rpcUrl },
      bundlerUrls: {
        // Alto bundles for 8453, not Arbitrum.
        42161: chain.bundlerUrl ?? '',
        // The chain's node answers eth_chainId but has no eth_supportedEntryPoints.
        8453: chain.rpcUrl,
        43114: closed,
      },
    })
    const response = await testApp.app.inject({ method: 'GET', url: '/ready' })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({
      status: 'not_ready',
      checks: {
        database: { status: 'ok', ms: expect.any(Number) },
        'chain 8453': { status: 'ok', ms: expect.any(Number) },
        'bundler 8453': {
          status: 'failed',
          ms: expect.any(Number),
          error: 'the bundler does not support EntryPoint v0.8 (0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108)',
        },
        'bundler 42161': {
          status: 'failed',
          ms: expect.any(Number),
          error: 'the bundler serves chain 8453, not 42161',
        },
        'bundler 43114': { status: 'failed', ms: expect.any(Number), error: 'the bundler cannot be reached' },
      },
    })
    expect(response.body).not.toContain('secret-api-key')
    expect(response.body).not.toContain(chain.rpcUrl)
  })
})
