import { connect, createServer } from 'node:net'
import { networkInterfaces } from 'node:os'
import { concatHex, createWalletClient, http, publicActions, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePorts } from '../test/find-free-ports.ts'
import { deterministicDeployer, entryPoints } from './deploy-account-abstraction.ts'
import { devnetMnemonic } from './devnet-chains.ts'
import { probeRpcPort } from './probe-rpc-port.ts'
import { fetchBundlerInfo, spawnAlto } from './spawn-alto.ts'
import { type AnvilProcess, spawnAnvil } from './spawn-anvil.ts'

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
    // Twelve accounts: the bundler's executor (10) and utility (11) keys need native currency.
    anvil = await spawnAnvil({ host: '127.0.0.1', port, chainId, mnemonic: devnetMnemonic, accountCount: 12 })
    // Alto refuses to start without code at its EntryPoints: put them where they belong.
    const client = createWalletClient({ transport: http(anvil.rpcUrl) }).extend(publicActions)
    const [deployer] = await client.getAddresses()
    for (const entryPoint of [entryPoints.v07, entryPoints.v08]) {
      const hash = await client.sendTransaction({
        account: deployer ?? zeroAddress,
        chain: null,
        to: deterministicDeployer,
        data: concatHex([entryPoint.salt, entryPoint.bytecode]),
      })
      await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      expect(await client.getCode({ address: entryPoint.address })).toMatch(/^0x[0-9a-f]{100,}$/)
    }
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
})
