/**
 * `npm start -w packages/devnet`: the devnet on its own (three anvil chains, deployed and seeded),
 * for working on contracts or wallets without the app server. Ctrl-C stops it; state is kept in
 * `${DATA_DIR}/devnet/` for the next start.
 */
import path from 'node:path'
import { z } from 'zod'
import { devnetChains, devnetMnemonic } from './devnet-chains.ts'
import { startDevnet } from './start-devnet.ts'

const cliEnvSchema = z.object({
  DATA_DIR: z.string().default('.data'),
  DEVNET_BASE_PORT: z.coerce.number().int().min(1).max(65533).default(8545),
  DEVNET_HOST: z.string().default('127.0.0.1'),
})

const parsed = cliEnvSchema.safeParse(process.env)
if (!parsed.success) {
  console.error(`Invalid environment: ${z.prettifyError(parsed.error)}`)
  process.exit(1)
}
const env = parsed.data
const repoRoot = path.resolve(import.meta.dirname, '../../..')
const dataDir = path.resolve(repoRoot, env.DATA_DIR)

const startedAt = performance.now()
const devnet = await startDevnet({
  dataDir,
  host: env.DEVNET_HOST,
  chains: devnetChains.map((chain, index) => ({
    chainId: chain.chainId,
    port: env.DEVNET_BASE_PORT + index,
  })),
  log: (line) => console.log(`  ${line}`),
}).catch((error: unknown) => {
  console.error(`✖ The devnet did not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

console.log(
  [
    '',
    `Devnet ready in ${Math.round(performance.now() - startedAt)} ms (mnemonic "${devnetMnemonic}", accounts 0-9 funded)`,
    ...devnet.deployment.chains.flatMap((chain) => [
      '',
      `  ${chain.name} · chain ${chain.chainId} · ${chain.rpcUrl} · bundler ${chain.bundlerUrl}`,
      ...chain.tokens.map(
        (token) => `    ${token.symbol.padEnd(18)} ${token.address}  (${token.decimals} decimals)`,
      ),
      ...Object.entries(chain.contracts).map(([name, address]) => `    ${name.padEnd(18)} ${address}`),
    ]),
    '',
    `Deployment: ${path.join(dataDir, 'devnet', 'deployment.json')}`,
    'Press Ctrl-C to stop.',
  ].join('\n'),
)

let isStopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (isStopping) return
    isStopping = true
    console.log('\nStopping the devnet (saving state)…')
    void devnet.stop().then(() => process.exit(0))
  })
}
