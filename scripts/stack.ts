/**
 * The full local stack behind `npm start`: the anvil devnet (three chains, deployed and seeded)
 * and the app server in dev mode, wired together by environment variables. Ports come from the
 * environment so a second stack (the e2e suite) can run beside a developer's.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import { z } from 'zod'

const stackEnvSchema = z.object({
  PORT: z.coerce.number().int().positive().default(3000),
  DEVNET_BASE_PORT: z.coerce.number().int().positive().default(8545),
  DATA_DIR: z.string().default('.data'),
  DEVNET_HOST: z.string().default('127.0.0.1'),
})

const repoRoot = resolve(import.meta.dirname, '..')
const parsed = stackEnvSchema.safeParse(process.env)
if (!parsed.success) {
  console.error(`Invalid environment: ${z.prettifyError(parsed.error)}`)
  process.exit(1)
}
const env = parsed.data
const dataDir = resolve(repoRoot, env.DATA_DIR)
const appUrl = `http://localhost:${env.PORT}`

let server: ChildProcess | undefined
let isStopping = false

console.log('• Starting the devnet (anvil)…')
const devnet = await startDevnet({
  dataDir,
  host: env.DEVNET_HOST,
  chains: [
    { chainId: 8453, port: env.DEVNET_BASE_PORT },
    { chainId: 43114, port: env.DEVNET_BASE_PORT + 1 },
    { chainId: 42161, port: env.DEVNET_BASE_PORT + 2 },
  ],
  log: (line) => console.log(`  ${line}`),
}).catch((error: unknown) => {
  console.error(`✖ The devnet did not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

const rpcUrls = Object.fromEntries(
  devnet.deployment.chains.map((chain) => [`RPC_URL_${chain.chainId}`, chain.rpcUrl]),
)

console.log('• Starting the app server…')
server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    DEV_MODE: process.env.DEV_MODE ?? 'true',
    PORT: String(env.PORT),
    DATA_DIR: dataDir,
    DEVNET_DEPLOYMENT_FILE: join(dataDir, 'devnet', 'deployment.json'),
    ...rpcUrls,
  },
})
server.on('exit', (code) => {
  if (isStopping) return
  console.error(`✖ The app server exited (code ${code}); stopping the devnet.`)
  void stopAll(code ?? 1)
})

await waitForHealth(`${appUrl}/health`)
printBanner()

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopAll(0))
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (isStopping) return
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250))
  }
  console.error(`✖ The app server did not answer ${url} within 120 s.`)
  await stopAll(1)
}

function printBanner(): void {
  const lines = [
    '',
    `  Quick Links is running:  ${appUrl}`,
    '',
    '  Devnet (anvil, test mnemonic "test test test test test test test test test test test junk"):',
    ...devnet.deployment.chains.flatMap((chain) => [
      `    ${chain.name.padEnd(10)} chain ${String(chain.chainId).padEnd(6)} ${chain.rpcUrl}`,
      `      ${chain.tokens.map((token) => `${token.symbol} ${token.address}`).join('  ')}`,
    ]),
    `  Devnet details as JSON:  ${appUrl}/api/dev/devnet`,
    `  Sign-in codes and links:  ${appUrl}/dev/mail  (e-mail and SMS are caught locally in dev mode)`,
    '',
    '  Press Ctrl-C to stop.',
    '',
  ]
  console.log(lines.join('\n'))
}

async function stopAll(code: number): Promise<void> {
  if (isStopping) return
  isStopping = true
  console.log('\n• Stopping…')
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server?.once('exit', done))
    server.kill('SIGTERM')
    const timer = setTimeout(() => server?.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await devnet.stop()
  process.exit(code)
}
