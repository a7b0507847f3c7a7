import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { createPublicClient, createTestClient, createWalletClient, defineChain, http } from 'viem'

/**
 * Starts a throwaway anvil (chain 31337 unless `chainId` says otherwise, the standard test mnemonic)
 * on a free port for contract tests, with viem clients bound to it. Throws when anvil does not
 * start listening within 20 s.
 */
export async function startTestAnvil(options: { chainId?: number } = {}) {
  const chainId = options.chainId ?? 31337
  const port = await findFreePort()
  const rpcUrl = `http://127.0.0.1:${port}`
  const anvilWrapper = createRequire(import.meta.url).resolve('@foundry-rs/anvil/bin.mjs')
  // Without --silent anvil prints "Listening on 127.0.0.1:<port>" once its socket is bound: the
  // event to wait for, instead of asking the port again and again.
  const child = spawn(
    process.execPath,
    [anvilWrapper, '--port', String(port), '--chain-id', String(chainId)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  await waitForListening(child, port)
  const chain = defineChain({
    id: chainId,
    name: 'Contract tests',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
  const accounts = await createWalletClient({ chain, transport }).getAddresses()
  const [deployer, other] = accounts
  if (!deployer || !other) throw new Error('anvil unlocked fewer than two accounts')
  return {
    publicClient,
    walletClient: createWalletClient({ chain, transport, account: deployer }),
    testClient: createTestClient({ chain, transport, mode: 'anvil' }),
    deployer,
    other,
    /** Every account anvil unlocked (ten, from the standard test mnemonic), deployer first. */
    accounts,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * Resolves once anvil's output says it listens; fails (and kills anvil) when it exits first or
 * has not said so within 20 s. Afterwards its output (one line per RPC call) is read and dropped.
 */
function waitForListening(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const settle = (failure?: string) => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.off('exit', onExit)
      child.stdout?.resume()
      if (failure === undefined) return resolve()
      child.kill('SIGKILL')
      reject(new Error(`anvil did not start on port ${port}: ${failure}\n${output}`))
    }
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Listening on')) settle()
    }
    const onExit = (code: number | null) => settle(`it exited with code ${code}`)
    // A time-out, not a wait: a healthy anvil says it listens well within it.
    const timer = setTimeout(() => settle('it said nothing within 20 s'), 20_000)
    child.stdout?.on('data', onData)
    child.once('exit', onExit)
  })
}

async function findFreePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no free port')
  return address.port
}
