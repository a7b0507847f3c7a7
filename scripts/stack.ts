/**
 * The full local stack behind `npm start`: the anvil devnet (three chains, deployed and seeded,
 * each with its Alto bundler on DEVNET_BASE_PORT + 30..32)
 * and the app server in dev mode, wired together by environment variables. Ports come from the
 * environment so a second stack (the e2e suite) can run beside a developer's.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import {
  type DevOidcProvider,
  devOidcUsers,
  startDevOidcProvider,
} from '@quicklinks/signer/dev/start-dev-oidc-provider'
import { z } from 'zod'

const stackEnvSchema = z.object({
  PORT: z.coerce.number().int().positive().default(3000),
  DEVNET_BASE_PORT: z.coerce.number().int().positive().default(8545),
  DATA_DIR: z.string().default('.data'),
  DEVNET_HOST: z.string().default('127.0.0.1'),
  /** The dev OIDC provider of social login (dev mode only); default PORT + 3. */
  DEV_OIDC_PORT: z.coerce.number().int().positive().optional(),
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

/** How long the app server gets to finish in-flight requests on SIGTERM before SIGKILL. */
const serverStopMs = 10_000
/** How long the devnet gets to stop before the stack exits anyway. */
const devnetStopMs = 3_000

let server: ChildProcess | undefined
let devnetStart: ReturnType<typeof startDevnet> | undefined
let devOidc: DevOidcProvider | undefined
const isDevMode = (process.env.DEV_MODE ?? 'true') === 'true'
let isStopping = false

// From the very start: a signal while the devnet starts still stops what has started. A second
// signal ends the stack at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => (isStopping ? killAllNow() : void stopAll(0)))
}

console.log('• Starting the devnet (anvil and an Alto bundler per chain)…')
devnetStart = startDevnet({
  dataDir,
  host: env.DEVNET_HOST,
  chains: [
    { chainId: 8453, port: env.DEVNET_BASE_PORT },
    { chainId: 43114, port: env.DEVNET_BASE_PORT + 1 },
    { chainId: 42161, port: env.DEVNET_BASE_PORT + 2 },
  ],
  log: (line) => console.log(`  ${line}`),
})
const devnet = await devnetStart.catch((error: unknown) => {
  console.error(`✖ The devnet did not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
// A signal while the devnet started: stopAll is stopping it; nothing more starts.
if (!isStopping && isDevMode) devOidc = await startDevOidc()
if (!isStopping) {
  startServer({
    ...Object.fromEntries(
      devnet.deployment.chains.flatMap((chain) => [
        [`RPC_URL_${chain.chainId}`, chain.rpcUrl],
        // The chain's ERC-4337 bundler (Alto), which the server's sponsor service relays to.
        [`BUNDLER_URL_${chain.chainId}`, chain.bundlerUrl],
      ]),
    ),
    ...(devOidc === undefined ? {} : { OAUTH_PROVIDERS: withDevOidcProvider(devOidc) }),
  })
  await waitForHealth(`${appUrl}/health`)
  if (!isStopping) printBanner()
}

/**
 * Dev mode: the local OpenID Connect provider of social login (docs/signer.md#dev-oidc-provider),
 * in this process, on DEV_OIDC_PORT (PORT + 3), its client's redirect URI the app's callback.
 */
async function startDevOidc(): Promise<DevOidcProvider> {
  const port = env.DEV_OIDC_PORT ?? env.PORT + 3
  const publicOrigin = process.env.PUBLIC_ORIGIN?.replace(/\/+$/, '') ?? appUrl
  console.log('• Starting the dev OIDC provider (social login)…')
  try {
    return await startDevOidcProvider({
      port,
      host: env.DEVNET_HOST,
      redirectUris: [`${publicOrigin}/signer/v1/oauth-callback`],
    })
  } catch (error) {
    console.error(
      `✖ The dev OIDC provider did not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`,
    )
    await stopAll(1)
    throw error
  }
}

/** OAUTH_PROVIDERS with the dev provider added (unless an entry already has its id). */
function withDevOidcProvider(provider: DevOidcProvider): string {
  const configured = process.env.OAUTH_PROVIDERS
  const list: unknown[] = configured ? (JSON.parse(configured) as unknown[]) : []
  const hasDev = list.some(
    (entry) =>
      typeof entry === 'object' && entry !== null && 'id' in entry && entry.id === provider.providerConfig.id,
  )
  return JSON.stringify(hasDev ? list : [...list, provider.providerConfig])
}

/** Starts the app server in dev mode on the devnet; any exit it was not asked for stops the stack. */
function startServer(chainUrls: Record<string, string>): void {
  console.log('• Starting the app server…')
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: {
      ...process.env,
      DEV_MODE: process.env.DEV_MODE ?? 'true',
      PORT: String(env.PORT),
      DATA_DIR: dataDir,
      DEVNET_DEPLOYMENT_FILE: join(dataDir, 'devnet', 'deployment.json'),
      ...chainUrls,
    },
  })
  child.on('exit', (code, signal) => {
    if (isStopping) return
    // Unasked, any exit is a failure, even code 0: a supervisor must see the stack go down.
    const how = signal === null ? `code ${code}` : `signal ${signal}`
    console.error(`✖ The app server exited (${how}); stopping the devnet.`)
    void stopAll(code === null || code === 0 ? 1 : code)
  })
  server = child
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
      `    ${chain.name.padEnd(10)} chain ${String(chain.chainId).padEnd(6)} ${chain.rpcUrl}  bundler ${chain.bundlerUrl}`,
      `      ${chain.tokens.map((token) => `${token.symbol} ${token.address}`).join('  ')}`,
    ]),
    `  Devnet details as JSON:  ${appUrl}/api/dev/devnet`,
    `  Sign-in codes and links:  ${appUrl}/dev/mail  (e-mail and SMS are caught locally in dev mode)`,
    ...(devOidc === undefined
      ? []
      : [
          `  Social login (dev OIDC provider, "Dev login"):  ${devOidc.issuer}`,
          `    test accounts: ${devOidcUsers.map((user) => user.email).join(', ')}`,
        ]),
    '',
    '  Press Ctrl-C to stop.',
    '',
  ]
  console.log(lines.join('\n'))
}

/** Whether a child has exited: by a code, or by a signal (then `exitCode` stays null). */
function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

/**
 * Stops the app server (SIGTERM: it finishes what is in flight; SIGKILL after `serverStopMs`),
 * then the devnet, and exits with `code`. Safe to call at any point of the start-up.
 */
async function stopAll(code: number): Promise<void> {
  if (isStopping) return
  isStopping = true
  console.log('\n• Stopping…')
  const running = server
  if (running !== undefined && !hasExited(running)) {
    const exited = new Promise((done) => running.once('exit', done))
    running.kill('SIGTERM')
    const timer = setTimeout(() => running.kill('SIGKILL'), serverStopMs)
    await exited
    clearTimeout(timer)
  }
  await stopDevnet()
  await devOidc?.close()
  process.exit(code)
}

/**
 * Stops the devnet once it has started (a start under way is awaited, so no anvil is left
 * behind), giving up on the stop itself after `devnetStopMs`.
 */
async function stopDevnet(): Promise<void> {
  const started = await devnetStart?.catch(() => undefined)
  if (started === undefined) return
  const timeout = new Promise((done) => setTimeout(done, devnetStopMs))
  await Promise.race([started.stop(), timeout])
}

/** A second signal: no more waiting. */
function killAllNow(): void {
  if (server !== undefined && !hasExited(server)) server.kill('SIGKILL')
  void stopDevnet().finally(() => process.exit(1))
}
