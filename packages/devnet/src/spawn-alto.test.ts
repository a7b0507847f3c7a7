import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer } from 'node:net'
import { networkInterfaces } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePorts } from '../test/find-free-ports.ts'
import { startEntryPointChain } from '../test/start-entry-point-chain.ts'
import { entryPoints } from './deploy-account-abstraction.ts'
import { probeRpcPort } from './probe-rpc-port.ts'
import { fetchBundlerInfo, spawnAlto } from './spawn-alto.ts'
import { type AnvilProcess, buildRpcUrl } from './spawn-anvil.ts'

/** An IPv4 address of this machine that is not loopback, if it has one. */
function findNonLoopbackAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .find((address) => address.family === 'IPv4' && !address.internal)?.address
}

/** Resolves true when a TCP connection to host:port is accepted. */
function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.setTimeout(2_000)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

describe('spawnAlto', () => {
  let anvil: AnvilProcess
  const chainId = 4242

  beforeAll(async () => {
    const [port = 0] = await findFreePorts(1)
    // Alto refuses to start without code at its EntryPoints, or without funds for its keys.
    anvil = await startEntryPointChain(port, chainId)
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  it('serves both EntryPoints for the chain on loopback only, and stop() frees the port', async () => {
    const [port = 0] = await findFreePorts(1)
    const errors: string[] = []
    const alto = await spawnAlto({
      host: '127.0.0.1',
      port,
      rpcUrl: anvil.rpcUrl,
      chainId,
      log: (line) => errors.push(line),
    })
    try {
      expect(alto.bundlerUrl).toBe(`http://127.0.0.1:${port}`)
      expect(await fetchBundlerInfo(alto.bundlerUrl, 2_000)).toEqual({
        chainId,
        entryPoints: [entryPoints.v07.address, entryPoints.v08.address],
      })
      const outside = findNonLoopbackAddress()
      if (outside) {
        expect(await canConnect(outside, port)).toBe(false)
        // Control: a server on every interface is reachable there, so the check above means something.
        const control = createServer()
        await new Promise<void>((resolve) => control.listen(0, '0.0.0.0', resolve))
        const address = control.address()
        const controlPort = typeof address === 'object' && address !== null ? address.port : 0
        expect(await canConnect(outside, controlPort)).toBe(true)
        await new Promise((resolve) => control.close(resolve))
      }
      expect(errors).toEqual([])
    } finally {
      await alto.stop()
    }
    expect((await probeRpcPort('127.0.0.1', port, alto.bundlerUrl)).status).toBe('free')
  })

  it('fails naming the port when it is taken', async () => {
    const [port = 0] = await findFreePorts(1)
    // A program of someone else's on the port (it hangs up on everyone).
    const holder = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve))
    try {
      await expect(
        spawnAlto({ host: '127.0.0.1', port, rpcUrl: anvil.rpcUrl, chainId, readyTimeoutMs: 20_000 }),
      ).rejects.toThrow(`bundler port ${port}`)
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })

  it('does not outlive a parent that is killed with SIGKILL', async () => {
    const [anvilPort = 0, altoPort = 0] = await findFreePorts(2)
    const fixture = path.join(import.meta.dirname, '../test/fixtures/hold-alto.ts')
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', fixture, String(anvilPort), String(altoPort)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    // The fixture prints "ready" once its Alto answers; an early exit ends the wait too.
    const output = await new Promise<string>((resolve) => {
      let printed = ''
      parent.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString()
        if (printed.includes('ready')) resolve(printed)
      })
      parent.once('exit', () => resolve(printed))
    })
    expect(output).toContain('ready')
    const bundlerUrl = buildRpcUrl('127.0.0.1', altoPort)
    expect((await fetchBundlerInfo(bundlerUrl, 2_000)).chainId).toBe(31337)

    parent.kill('SIGKILL')
    await once(parent, 'exit')
    // Alto and anvil belong to the dead parent's tree: ask their ports until they are free.
    await expect
      .poll(async () => (await probeRpcPort('127.0.0.1', altoPort, bundlerUrl)).status, { timeout: 15_000 })
      .toBe('free')
    await expect
      .poll(
        async () => (await probeRpcPort('127.0.0.1', anvilPort, buildRpcUrl('127.0.0.1', anvilPort))).status,
        { timeout: 15_000 },
      )
      .toBe('free')
  })
})
