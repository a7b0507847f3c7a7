import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findFreePorts } from '../test/find-free-ports.ts'
import { devnetMnemonic } from './devnet-chains.ts'
import { fetchChainId, probeRpcPort } from './probe-rpc-port.ts'
import { buildRpcUrl, spawnAnvil } from './spawn-anvil.ts'

describe('spawnAnvil', () => {
  it('answers with the chain id, and stop() frees the port', async () => {
    const [port = 0] = await findFreePorts(1)
    const anvil = await spawnAnvil({
      host: '127.0.0.1',
      port,
      chainId: 4242,
      mnemonic: devnetMnemonic,
      accountCount: 1,
    })
    expect(await fetchChainId(anvil.rpcUrl, 1_000)).toBe(4242)
    await anvil.stop()
    expect((await probeRpcPort('127.0.0.1', port, anvil.rpcUrl)).status).toBe('free')
  })

  it('fails with anvil output when the port is taken', async () => {
    const [port = 0] = await findFreePorts(1)
    const first = await spawnAnvil({
      host: '127.0.0.1',
      port,
      chainId: 4242,
      mnemonic: devnetMnemonic,
      accountCount: 1,
    })
    try {
      await expect(
        spawnAnvil({ host: '127.0.0.1', port, chainId: 4243, mnemonic: devnetMnemonic, accountCount: 1 }),
      ).rejects.toThrow(`port ${port}`)
    } finally {
      await first.stop()
    }
  })

  it('does not outlive a parent that is killed with SIGKILL', async () => {
    const [port = 0] = await findFreePorts(1)
    const fixture = path.join(import.meta.dirname, '../test/fixtures/hold-anvil.ts')
    const parent = spawn(process.execPath, ['--import', 'tsx', fixture, String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    // The fixture prints "ready" once its anvil answers; an early exit ends the wait too.
    const output = await new Promise<string>((resolve) => {
      let printed = ''
      parent.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString()
        if (printed.includes('ready')) resolve(printed)
      })
      parent.once('exit', () => resolve(printed))
    })
    expect(output).toContain('ready')
    expect(await fetchChainId(buildRpcUrl('127.0.0.1', port), 1_000)).toBe(31337)

    parent.kill('SIGKILL')
    await once(parent, 'exit')
    // anvil belongs to the dead parent's tree, so no exit event reaches this process: ask the port
    // until it is free (the guard's SIGTERM takes anvil a moment to act on).
    await expect
      .poll(async () => (await probeRpcPort('127.0.0.1', port, buildRpcUrl('127.0.0.1', port))).status, {
        timeout: 5_000,
      })
      .toBe('free')
  })
})
