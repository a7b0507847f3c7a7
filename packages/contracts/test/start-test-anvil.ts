import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { createPublicClient, createTestClient, createWalletClient, defineChain, http } from 'viem'

/**
 * Starts a throwaway anvil (chain 31337 unless `chainId` says otherwise, the standard test mnemonic)
 * on a free port for contract tests, with viem clients bound to it. Throws when anvil does not
 * answer within 20 s.
 */
export async function startTestAnvil(options: { chainId?: number } = {}) {
  const chainId = options.chainId ?? 31337
  const port = await findFreePort()
  const rpcUrl = `http://127.0.0.1:${port}`
  const anvilWrapper = createRequire(import.meta.url).resolve('@foundry-rs/anvil/bin.mjs')
  const child = spawn(
    process.execPath,
    [anvilWrapper, '--port', String(port), '--chain-id', String(chainId), '--silent'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const chain = defineChain({
    id: chainId,
    name: 'Contract tests',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
  const deadline = Date.now() + 20_000
  for (;;) {
    try {
      await publicClient.getChainId()
      break
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL')
        throw new Error(`anvil did not start on port ${port}`, { cause: error })
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
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

async function findFreePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no free port')
  return address.port
}
