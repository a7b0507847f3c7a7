// Every listening server bounds how long a client may hold it (docs/api.md#timeouts): Fastify's
// defaults leave the request and connection times unbounded, so a client that connects and sends
// nothing (or trickles a request) would hold a socket for ever.
import { connect } from 'node:net'
import { createLogger } from '@quicklinks/runtime/create-logger'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSignerApp } from '../../signer/src/build-signer-app.ts'
import { buildFramesServer } from '../../signer/src/frames-server/build-frames-server.ts'
import { buildTestApp, createTestConfig, createTestDatabase, type TestApp } from './build-test-app.ts'

/** What the Node server under a Fastify instance enforces. */
function readTimeouts(app: FastifyInstance) {
  return {
    requestTimeout: app.server.requestTimeout,
    connectionTimeout: app.server.timeout,
    keepAliveTimeout: app.server.keepAliveTimeout,
  }
}

/** Connects to `port`, sends `data` (or nothing), and resolves with how long the server kept the socket open. */
function measureHeldOpen(port: number, data: string | undefined, giveUpMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1', () => {
      if (data !== undefined) socket.write(data)
    })
    const giveUp = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server held an idle socket for more than ${giveUpMs} ms`))
    }, giveUpMs)
    socket.on('data', () => {})
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(giveUp)
      resolve(Date.now() - started)
    })
  })
}

describe('HTTP timeouts', () => {
  const closers: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close()
  })

  it('sets the documented defaults on the app server, the standalone signer and the frames server', async () => {
    const testApp: TestApp = await buildTestApp()
    closers.push(() => testApp.close())
    const config = createTestConfig()
    const database = await createTestDatabase()
    const signer = await buildSignerApp(config, { database, logger: createLogger('silent') })
    closers.push(
      () => database.close(),
      () => signer.close(),
    )
    const frames = await buildFramesServer(
      { publicOrigin: config.publicOrigin, trustProxy: false },
      { getExportSignerPublicKey: async () => undefined },
    )
    closers.push(() => frames.close())
    const defaults = { requestTimeout: 30_000, connectionTimeout: 120_000, keepAliveTimeout: 72_000 }
    expect(readTimeouts(testApp.app)).toEqual(defaults)
    expect(readTimeouts(signer)).toEqual(defaults)
    expect(readTimeouts(frames)).toEqual(defaults)
  })

  it('closes a socket that sends nothing, or half a request, once the connection timeout passes', async () => {
    const httpTimeouts = { requestMs: 2_000, connectionMs: 1_000, keepAliveMs: 1_000 }
    const testApp = await buildTestApp({ httpTimeouts })
    closers.push(() => testApp.close())
    await testApp.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = testApp.app.server.address() as { port: number }
    expect(readTimeouts(testApp.app)).toEqual({
      requestTimeout: 2_000,
      connectionTimeout: 1_000,
      keepAliveTimeout: 1_000,
    })
    expect(await measureHeldOpen(port, undefined, 10_000)).toBeLessThan(8_000)
    expect(await measureHeldOpen(port, 'GET /health HTTP/1.1\r\nHost: x\r\n', 10_000)).toBeLessThan(8_000)

    const frames = await buildFramesServer(
      { publicOrigin: 'http://localhost:3999', trustProxy: false, httpTimeouts },
      { getExportSignerPublicKey: async () => undefined },
    )
    closers.push(() => frames.close())
    await frames.listen({ port: 0, host: '127.0.0.1' })
    const framesPort = (frames.server.address() as { port: number }).port
    expect(await measureHeldOpen(framesPort, undefined, 10_000)).toBeLessThan(8_000)
  })
})
