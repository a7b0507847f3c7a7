/**
 * The e2e suite's Squid-configured server (the Playwright config's second web server): the Squid
 * stand-in on loopback, serving the main e2e stack's devnet as Squid's catalogue, and one more app
 * server process with ROUTING_PROVIDER=squid on its own ports and data folder, its RPCs the same
 * anvils, and a WalletConnect project id (the main stack has none). No second devnet: the CI
 * machine has two cores. Run from the repository root, after the main stack is up:
 * `node --import tsx e2e/start-squid-stack.ts`. DEVNET_DEPLOYMENT_FILE names the main stack's
 * deployment (default .data/e2e/devnet/deployment.json). SIGTERM or SIGINT stops both.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { type DevnetDeployment, readDeployment } from '@quicklinks/devnet/devnet-deployment'
import { type SquidStandIn, startSquidStandIn } from '@quicklinks/devnet/start-squid-stand-in'
import { squidStack } from './squid-stack-settings.ts'

const repoRoot = resolve(import.meta.dirname, '..')
const deploymentFile = resolve(
  repoRoot,
  process.env.DEVNET_DEPLOYMENT_FILE ?? '.data/e2e/devnet/deployment.json',
)
const dataDir = resolve(repoRoot, squidStack.dataDir)

let standIn: SquidStandIn | undefined
let server: ChildProcess | undefined
let isStopping = false

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stop(0))
}

const deployment = await waitForDeployment(deploymentFile)
// A fresh database on every start: nothing of an earlier run (or a killed one) carries over.
await rm(dataDir, { recursive: true, force: true })
await mkdir(dataDir, { recursive: true })

standIn = await startSquidStandIn({
  deployment,
  host: '127.0.0.1',
  port: squidStack.standInPort,
  integratorId: squidStack.integratorId,
})
console.log(`• Squid stand-in on ${standIn.url} (the devnet of ${deploymentFile})`)

server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    DEV_MODE: 'true',
    PORT: String(squidStack.port),
    FRAMES_PORT: String(squidStack.framesPort),
    SMTP_PORT: String(squidStack.smtpPort),
    DATA_DIR: dataDir,
    DEVNET_DEPLOYMENT_FILE: deploymentFile,
    ROUTING_PROVIDER: 'squid',
    SQUID_API_URL: standIn.url,
    SQUID_INTEGRATOR_ID: squidStack.integratorId,
    WALLETCONNECT_PROJECT_ID: squidStack.walletConnectProjectId,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // Its tracker has little to follow here; polling at 1 s would cost a 2-core CI machine CPU for nothing.
    WORKER_INTERVAL_MS: process.env.WORKER_INTERVAL_MS ?? '5000',
    ...Object.fromEntries(
      deployment.chains.flatMap((chain) => [
        [`RPC_URL_${chain.chainId}`, chain.rpcUrl],
        [`BUNDLER_URL_${chain.chainId}`, chain.bundlerUrl],
      ]),
    ),
  },
})
server.on('exit', (code) => {
  if (isStopping) return
  console.error(`✖ The Squid-configured app server exited (code ${code}).`)
  void stop(code ?? 1)
})

/** The main stack writes the deployment once its devnet is up; wait for it (at most 4 min). */
async function waitForDeployment(file: string): Promise<DevnetDeployment> {
  const deadline = Date.now() + 240_000
  for (;;) {
    if (existsSync(file)) {
      try {
        return await readDeployment(file)
      } catch (error) {
        if (Date.now() > deadline) throw error
      }
    } else if (Date.now() > deadline) {
      throw new Error(`no devnet deployment at ${file}: start the main e2e stack first`)
    }
    await new Promise((done) => setTimeout(done, 500))
  }
}

async function stop(code: number): Promise<void> {
  if (isStopping) return
  isStopping = true
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((done) => server?.once('exit', done))
    server.kill('SIGTERM')
    const timer = setTimeout(() => server?.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await standIn?.stop()
  process.exit(code)
}
