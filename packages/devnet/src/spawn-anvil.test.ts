import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findFreePorts } from '../test/find-free-ports.ts'
import { devnetMnemonic } from './devnet-chains.ts'
import { fetchChainId, probeRpcPort } from './probe-rpc-port.ts'
import { buildRpcUrl, spawnAnvil } from './spawn-anvil.ts'

async function waitForPortFree(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if ((await probeRpcPort('127.0.0.1', port, buildRpcUrl('127.0.0.1', port))).status === 'free') return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return false
}

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
    let output = ''
    parent.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const deadline = Date.now() + 20_000
    while (!output.includes('ready') && Date.now() < deadline && parent.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(output).toContain('ready')
    expect(await fetchChainId(buildRpcUrl('127.0.0.1', port), 1_000)).toBe(31337)

    parent.kill('SIGKILL')
    await once(parent, 'exit')
    expect(await waitForPortFree(port, 5_000)).toBe(true)
  })
})
