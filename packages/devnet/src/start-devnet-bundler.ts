import { probeRpcPort } from './probe-rpc-port.ts'
import { describeWrongBundler, fetchBundlerInfo, spawnAlto } from './spawn-alto.ts'
import { buildRpcUrl } from './spawn-anvil.ts'
import type { ResolvedChain } from './start-anvil-chain.ts'

/** How far above its chain's port a bundler listens unless told otherwise. */
export const bundlerPortOffset = 30

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
export async function startBundler({ chain, host, label, rpcUrl, reused, log }: StartBundlerOptions) {
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
