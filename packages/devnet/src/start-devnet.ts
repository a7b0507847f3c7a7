import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { type DevnetChainConfig, devnetChains } from './devnet-chains.ts'
import { type DevnetChainDeployment, type DevnetDeployment, writeDeployment } from './devnet-deployment.ts'
import { buildRpcUrl } from './spawn-anvil.ts'
import { type ResolvedChain, startAnvilChain } from './start-anvil-chain.ts'
import { bundlerPortOffset, startBundler } from './start-devnet-bundler.ts'

/** A chain to run: a known chain id on a port; the other fields override the default table. */
export type DevnetChainOption = {
  chainId: number
  port: number
  /** Port of the chain's ERC-4337 bundler (Alto); defaults to `port + 30` (8575-8577 for `npm start`). */
  bundlerPort?: number
} & Partial<Omit<DevnetChainConfig, 'chainId' | 'port'>>

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
