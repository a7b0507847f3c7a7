import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createPublicClient, http } from 'viem'
import { z } from 'zod'
import { deployDevnetChain, getDeploymentFingerprint } from './deploy-devnet-chain.ts'
import { type DevnetChainConfig, devnetAccountCount, devnetChains, devnetMnemonic } from './devnet-chains.ts'
import {
  type DeployedDevnetChain,
  type DevnetChainDeployment,
  type DevnetDeployment,
  devnetChainDeploymentSchema,
  writeDeployment,
} from './devnet-deployment.ts'
import { probeRpcPort } from './probe-rpc-port.ts'
import { describeWrongBundler, fetchBundlerInfo, spawnAlto } from './spawn-alto.ts'
import { buildRpcUrl, spawnAnvil } from './spawn-anvil.ts'

/** A chain to run: a known chain id on a port; the other fields override the default table. */
export type DevnetChainOption = {
  chainId: number
  port: number
  /** Port of the chain's ERC-4337 bundler (Alto); defaults to `port + 30` (8575-8577 for `npm start`). */
  bundlerPort?: number
} & Partial<Omit<DevnetChainConfig, 'chainId' | 'port'>>

/** How far above its chain's port a bundler listens unless told otherwise. */
export const bundlerPortOffset = 30

type ResolvedChain = DevnetChainConfig & { bundlerPort: number }

export type StartDevnetOptions = {
  /** State lives under `${dataDir}/devnet/`: deployment.json and one folder per chain id. */
  dataDir: string
  /** Defaults to Base on 8545, Avalanche C-Chain on 8546 and Arbitrum One on 8547. */
  chains?: DevnetChainOption[]
  /** Interface the anvils listen on; defaults to 127.0.0.1. */
  host?: string
  log?: (line: string) => void
  /**
   * Whether each chain gets its bundler (Alto); default true. Tests that never send a user
   * operation pass false: three Alto processes cost more start-up than the chains and their
   * deployment together. The deployment still names each chain's bundler URL; nothing answers there.
   */
  bundlers?: boolean
}

export type RunningDevnet = {
  deployment: DevnetDeployment
  /** Stops the bundlers and anvils this call started (each anvil saves its state) and waits for them to exit. */
  stop(): Promise<void>
}

/** What each chain folder remembers: the deployment on its saved state and what produced it. */
const chainRecordSchema = z.object({
  fingerprint: z.string(),
  deployment: devnetChainDeploymentSchema.omit({ bundlerUrl: true }),
})
type ChainRecord = z.infer<typeof chainRecordSchema>

type StartedChain = { deployment: DevnetChainDeployment; stop: () => Promise<void> }

/**
 * Brings up the devnet: one anvil per chain, deployed and seeded, each with its ERC-4337 bundler
 * (Alto) on `bundlerPort`, and writes the deployment to `${dataDir}/devnet/deployment.json`. A
 * chain that already runs on its port with this data dir's deployment is reused as is, with the
 * bundler that answers for it on its bundler port (both left running by `stop()`); a stopped chain
 * restarts from its saved anvil state, keeping addresses and balances; anything else is deployed
 * fresh. Fails with a message naming the port when a chain or bundler port is held by another
 * program or another chain, and when anvil, Alto or a deployment fails; chains it started before
 * the failure are stopped again.
 */
export async function startDevnet(options: StartDevnetOptions): Promise<RunningDevnet> {
  const host = options.host ?? '127.0.0.1'
  const log = options.log ?? (() => {})
  const chains = (options.chains ?? devnetChains).map(resolveChainConfig)
  assertDistinct(chains)
  const devnetDirectory = path.join(options.dataDir, 'devnet')
  await mkdir(devnetDirectory, { recursive: true })

  const results = await Promise.allSettled(
    chains.map((chain) =>
      startChain({
        chain,
        host,
        log,
        chainDirectory: path.join(devnetDirectory, String(chain.chainId)),
        hasBundler: options.bundlers ?? true,
      }),
    ),
  )
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
  if (failures.length > 0) {
    await Promise.all(started.map((chain) => chain.stop()))
    const messages = failures.map((failure) => (failure instanceof Error ? failure.message : String(failure)))
    throw new Error(messages.join('\n'), { cause: failures[0] })
  }

  const deployment: DevnetDeployment = { chains: started.map((chain) => chain.deployment) }
  await writeDeployment(path.join(devnetDirectory, 'deployment.json'), deployment)

  let stopping: Promise<void> | undefined
  return {
    deployment,
    stop: () => {
      stopping ??= Promise.all(started.map((chain) => chain.stop())).then(() => undefined)
      return stopping
    },
  }
}

function resolveChainConfig(option: DevnetChainOption): ResolvedChain {
  const known: DevnetChainConfig | undefined = devnetChains.find((chain) => chain.chainId === option.chainId)
  const name = option.name ?? known?.name
  const nativeSymbol = option.nativeSymbol ?? known?.nativeSymbol
  const wrappedNativeSymbol = option.wrappedNativeSymbol ?? known?.wrappedNativeSymbol
  const nativeUsdcPrice = option.nativeUsdcPrice ?? known?.nativeUsdcPrice
  if (!name || !nativeSymbol || !wrappedNativeSymbol || nativeUsdcPrice === undefined) {
    throw new Error(
      `chain ${option.chainId} is not one of the devnet's chains (${devnetChains.map((chain) => chain.chainId).join(', ')}); give its name, nativeSymbol, wrappedNativeSymbol and nativeUsdcPrice`,
    )
  }
  return {
    chainId: option.chainId,
    port: option.port,
    name,
    nativeSymbol,
    wrappedNativeSymbol,
    nativeUsdcPrice,
    bundlerPort: option.bundlerPort ?? option.port + bundlerPortOffset,
  }
}

function assertDistinct(chains: ResolvedChain[]): void {
  const ports = new Map<number, string>()
  for (const [index, chain] of chains.entries()) {
    const earlier = chains.slice(0, index)
    if (earlier.some((other) => other.chainId === chain.chainId))
      throw new Error(`chain ${chain.chainId} is listed twice`)
    for (const [port, use] of [
      [chain.port, `chain ${chain.chainId}`],
      [chain.bundlerPort, `the bundler of chain ${chain.chainId}`],
    ] as const) {
      const other = ports.get(port)
      if (other) throw new Error(`port ${port} is given to both ${other} and ${use}`)
      ports.set(port, use)
    }
  }
}

type StartChainOptions = {
  chain: ResolvedChain
  host: string
  chainDirectory: string
  log: (line: string) => void
  /** False: no bundler is started (StartDevnetOptions.bundlers). */
  hasBundler: boolean
}

/** Starts (or reuses) the chain, then its bundler; a bundler that cannot start stops the chain again. */
async function startChain(options: StartChainOptions): Promise<StartedChain> {
  const { chain, host, log } = options
  const label = `${chain.name} (${chain.chainId})`
  const started = await startAnvilChain(options)
  if (!options.hasBundler) {
    return {
      deployment: { ...started.deployment, bundlerUrl: buildRpcUrl(host, chain.bundlerPort) },
      stop: started.stop,
    }
  }
  try {
    const bundler = await startBundler({
      chain,
      host,
      label,
      log,
      rpcUrl: started.deployment.rpcUrl,
      reused: started.reused,
    })
    return {
      deployment: { ...started.deployment, bundlerUrl: bundler.bundlerUrl },
      stop: async () => {
        await bundler.stop()
        await started.stop()
      },
    }
  } catch (error) {
    await started.stop()
    throw error
  }
}

type StartedAnvilChain = { deployment: DeployedDevnetChain; reused: boolean; stop: () => Promise<void> }

async function startAnvilChain({
  chain,
  host,
  chainDirectory,
  log,
}: StartChainOptions): Promise<StartedAnvilChain> {
  const label = `${chain.name} (${chain.chainId})`
  const rpcUrl = buildRpcUrl(host, chain.port)
  const recordFile = path.join(chainDirectory, 'chain.json')
  const stateFile = path.join(chainDirectory, 'anvil-state.json')
  const fingerprint = getDeploymentFingerprint(chain)

  const record = await readChainRecord(recordFile)
  const saved = record?.fingerprint === fingerprint ? { ...record.deployment, rpcUrl } : undefined

  const probe = await probeRpcPort(host, chain.port, rpcUrl)
  if (probe.status === 'rpc' && probe.chainId === chain.chainId && saved && (await hasDeployedCode(saved))) {
    log(`${label}: reusing the chain already running at ${rpcUrl}`)
    return { deployment: saved, reused: true, stop: async () => {} }
  }
  if (probe.status !== 'free') {
    const holder =
      probe.status === 'other'
        ? probe.detail
        : probe.chainId === chain.chainId
          ? `an Ethereum node with chain id ${probe.chainId} that lacks this data dir's devnet deployment (another data dir's devnet, or a node of your own?)`
          : `an Ethereum node with chain id ${probe.chainId}`
    throw new Error(
      `port ${chain.port} on ${host} is in use by ${holder}, so the ${label} devnet chain cannot start there. Stop that program, or run the devnet on other ports: set DEVNET_BASE_PORT for \`npm start\` or the devnet CLI, or pass \`chains: [{ chainId: ${chain.chainId}, port: <free port> }]\` to startDevnet.`,
    )
  }

  if (!saved) {
    // State that no valid record describes cannot be trusted to hold the contracts: start clean.
    if (record || existsSync(stateFile)) log(`${label}: saved state is out of date; deploying afresh`)
    await rm(chainDirectory, { recursive: true, force: true })
  }
  await mkdir(chainDirectory, { recursive: true })
  const anvil = await spawnChainAnvil({ chain, host, stateFile, label, log })
  try {
    if (saved && (await hasDeployedCode(saved))) {
      log(`${label}: restarted from saved state at ${rpcUrl}`)
      return { deployment: saved, reused: false, stop: anvil.stop }
    }
    const deployment = await deployDevnetChain({ rpcUrl, chain, log })
    const newRecord: ChainRecord = { fingerprint, deployment }
    await writeFile(recordFile, `${JSON.stringify(newRecord, null, 2)}\n`)
    return { deployment, reused: false, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

type StartBundlerOptions = {
  chain: ResolvedChain
  host: string
  label: string
  rpcUrl: string
  /** Whether the chain was already running: only then may a bundler already running for it be kept. */
  reused: boolean
  log: (line: string) => void
}

/**
 * Starts Alto for the chain on its bundler port, or keeps the bundler already answering there for
 * this chain when the chain itself was reused. Throws naming the port when something else holds it.
 */
async function startBundler({ chain, host, label, rpcUrl, reused, log }: StartBundlerOptions) {
  const bundlerUrl = buildRpcUrl(host, chain.bundlerPort)
  const holder = await probeBundlerPort(host, chain.bundlerPort, bundlerUrl, chain.chainId)
  if (holder === undefined && reused) {
    log(`${label}: reusing the bundler already running at ${bundlerUrl}`)
    return { bundlerUrl, stop: async () => {} }
  }
  if (holder !== 'free') {
    throw new Error(
      `port ${chain.bundlerPort} on ${host} is in use by ${holder ?? `a bundler for chain ${chain.chainId} left over from an earlier devnet (its chain was not running)`}, so the ${label} devnet bundler cannot start there. Stop that program, or run the devnet on other ports: set DEVNET_BASE_PORT for \`npm start\` or the devnet CLI (bundlers listen ${bundlerPortOffset} ports above their chains), or pass \`chains: [{ chainId: ${chain.chainId}, port: ${chain.port}, bundlerPort: <free port> }]\` to startDevnet.`,
    )
  }
  const alto = await spawnAlto({
    host,
    port: chain.bundlerPort,
    rpcUrl,
    chainId: chain.chainId,
    log: (line) => log(`${label} alto: ${line}`),
  })
  log(`${label}: bundler at ${alto.bundlerUrl}`)
  return { bundlerUrl: alto.bundlerUrl, stop: alto.stop }
}

/** 'free', `undefined` for the devnet's bundler of `chainId`, or a description of what holds the port. */
async function probeBundlerPort(
  host: string,
  port: number,
  bundlerUrl: string,
  chainId: number,
): Promise<'free' | string | undefined> {
  const probe = await probeRpcPort(host, port, bundlerUrl)
  if (probe.status === 'free') return 'free'
  if (probe.status === 'other') return probe.detail
  try {
    const wrong = describeWrongBundler(await fetchBundlerInfo(bundlerUrl, 2_000), chainId)
    return wrong
  } catch {
    return `an Ethereum node with chain id ${probe.chainId} (not a bundler)`
  }
}

type SpawnChainAnvilOptions = {
  chain: ResolvedChain
  host: string
  stateFile: string
  label: string
  log: (line: string) => void
}

/** Starts anvil on the saved state; a state file anvil cannot load is set aside and the chain starts empty. */
async function spawnChainAnvil({ chain, host, stateFile, label, log }: SpawnChainAnvilOptions) {
  const spawnOnce = () =>
    spawnAnvil({
      host,
      port: chain.port,
      chainId: chain.chainId,
      mnemonic: devnetMnemonic,
      accountCount: devnetAccountCount,
      stateFile,
      log: (line) => log(`${label} anvil: ${line}`),
    })
  try {
    return await spawnOnce()
  } catch (error) {
    if (!existsSync(stateFile)) throw error
    log(`${label}: anvil could not start on the saved state; setting it aside as ${stateFile}.broken`)
    await rename(stateFile, `${stateFile}.broken`)
    return spawnOnce()
  }
}

async function readChainRecord(file: string): Promise<ChainRecord | undefined> {
  try {
    const parsed = chainRecordSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** True when every contract and token of the deployment has code on the chain at `rpcUrl`. */
async function hasDeployedCode(deployment: DeployedDevnetChain): Promise<boolean> {
  const client = createPublicClient({ transport: http(deployment.rpcUrl, { retryCount: 0 }) })
  const addresses = [
    ...Object.values(deployment.contracts),
    ...deployment.tokens.map((token) => token.address),
  ]
  try {
    const chainId = await client.getChainId()
    if (chainId !== deployment.chainId) return false
    const codes = await Promise.all(addresses.map((address) => client.getCode({ address })))
    return codes.every((code) => code !== undefined && code !== '0x')
  } catch {
    return false
  }
}
