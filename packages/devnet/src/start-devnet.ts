import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createPublicClient, http } from 'viem'
import { z } from 'zod'
import { deployDevnetChain, getDeploymentFingerprint } from './deploy-devnet-chain.ts'
import { type DevnetChainConfig, devnetAccountCount, devnetChains, devnetMnemonic } from './devnet-chains.ts'
import {
  type DevnetChainDeployment,
  type DevnetDeployment,
  devnetChainDeploymentSchema,
  writeDeployment,
} from './devnet-deployment.ts'
import { probeRpcPort } from './probe-rpc-port.ts'
import { buildRpcUrl, spawnAnvil } from './spawn-anvil.ts'

/** A chain to run: a known chain id on a port; the other fields override the default table. */
export type DevnetChainOption = { chainId: number; port: number } & Partial<
  Omit<DevnetChainConfig, 'chainId' | 'port'>
>

export type StartDevnetOptions = {
  /** State lives under `${dataDir}/devnet/`: deployment.json and one folder per chain id. */
  dataDir: string
  /** Defaults to Base on 8545, Avalanche C-Chain on 8546 and Arbitrum One on 8547. */
  chains?: DevnetChainOption[]
  /** Interface the anvils listen on; defaults to 127.0.0.1. */
  host?: string
  log?: (line: string) => void
}

export type RunningDevnet = {
  deployment: DevnetDeployment
  /** Stops the anvils this call started (each saves its state) and waits for them to exit. */
  stop(): Promise<void>
}

/** What each chain folder remembers: the deployment on its saved state and what produced it. */
const chainRecordSchema = z.object({ fingerprint: z.string(), deployment: devnetChainDeploymentSchema })
type ChainRecord = z.infer<typeof chainRecordSchema>

type StartedChain = { deployment: DevnetChainDeployment; stop: () => Promise<void> }

/**
 * Brings up the devnet: one anvil per chain, deployed and seeded, and writes the deployment to
 * `${dataDir}/devnet/deployment.json`. A chain that already runs on its port with this data dir's
 * deployment is reused as is (and left running by `stop()`); a stopped chain restarts from its
 * saved anvil state, keeping addresses and balances; anything else is deployed fresh. Fails with a
 * message naming the port when a port is held by another program or another chain, and when anvil
 * or a deployment fails; chains it started before the failure are stopped again.
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
      startChain({ chain, host, log, chainDirectory: path.join(devnetDirectory, String(chain.chainId)) }),
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

function resolveChainConfig(option: DevnetChainOption): DevnetChainConfig {
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
  }
}

function assertDistinct(chains: DevnetChainConfig[]): void {
  for (const [index, chain] of chains.entries()) {
    const earlier = chains.slice(0, index)
    if (earlier.some((other) => other.chainId === chain.chainId))
      throw new Error(`chain ${chain.chainId} is listed twice`)
    if (earlier.some((other) => other.port === chain.port))
      throw new Error(`port ${chain.port} is given to two chains`)
  }
}

type StartChainOptions = {
  chain: DevnetChainConfig
  host: string
  chainDirectory: string
  log: (line: string) => void
}

async function startChain({ chain, host, chainDirectory, log }: StartChainOptions): Promise<StartedChain> {
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
    return { deployment: saved, stop: async () => {} }
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
      return { deployment: saved, stop: anvil.stop }
    }
    const deployment = await deployDevnetChain({ rpcUrl, chain, log })
    const newRecord: ChainRecord = { fingerprint, deployment }
    await writeFile(recordFile, `${JSON.stringify(newRecord, null, 2)}\n`)
    return { deployment, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

type SpawnChainAnvilOptions = {
  chain: DevnetChainConfig
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
async function hasDeployedCode(deployment: DevnetChainDeployment): Promise<boolean> {
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
