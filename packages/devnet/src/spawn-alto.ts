import { createRequire } from 'node:module'
import path from 'node:path'
import { type Address, getAddress, type Hex, toHex } from 'viem'
import {
  devnetBundlerExecutorIndex,
  devnetBundlerUtilityIndex,
  entryPoints,
} from './deploy-account-abstraction.ts'
import { getDevnetAccount } from './get-devnet-account.ts'
import { buildRpcUrl } from './spawn-anvil.ts'
import { spawnGuardedProcess, waitUntilReady } from './spawn-guarded-process.ts'

export type SpawnAltoOptions = {
  /** Interface the bundler listens on (Alto itself would take every interface: see alto-listen-host.cjs). */
  host: string
  port: number
  /** The chain it bundles for: its JSON-RPC URL and chain id (checked once Alto answers). */
  rpcUrl: string
  chainId: number
  /** Receives Alto's output: errors only, it runs with `--log-level error`. */
  log?: (line: string) => void
  /** How long to wait for it to answer `eth_supportedEntryPoints`. */
  readyTimeoutMs?: number
}

export type AltoProcess = {
  pid: number
  /** The bundler's JSON-RPC URL (ERC-4337 `eth_*UserOperation*` methods). */
  bundlerUrl: string
  /** Stops Alto and resolves once it has exited. */
  stop(): Promise<void>
}

/** The EntryPoints the devnet's bundlers serve: v0.7 and v0.8 at their canonical addresses. */
export const bundlerEntryPoints: readonly Address[] = [entryPoints.v07.address, entryPoints.v08.address]

const preloadFile = path.join(import.meta.dirname, 'alto-listen-host.cjs')

/**
 * Starts Pimlico's Alto bundler (`@pimlico/alto`) for one devnet chain, bound to `host` only, and
 * resolves once it answers `eth_supportedEntryPoints` with both EntryPoints for `chainId`. It sends
 * bundles from mnemonic account 10 and deploys its simulation contracts from account 11 (nothing
 * else sends from them, so no nonce races), makes its simulation calls as the executor (the
 * devnet's SponsorPaymaster allows only that transaction origin), and runs with `--safe-mode false`
 * (anvil has no tracer).
 * Like anvil it never outlives this process. Fails when Alto is not installed, exits early (a taken
 * port; its output is in the message) or does not answer in time.
 */
export async function spawnAlto(options: SpawnAltoOptions): Promise<AltoProcess> {
  const bundlerUrl = buildRpcUrl(options.host, options.port)
  const args = [
    '--require',
    preloadFile,
    resolveAltoCli(),
    '--entrypoints',
    bundlerEntryPoints.join(','),
    '--executor-private-keys',
    getDevnetPrivateKey(devnetBundlerExecutorIndex),
    '--utility-private-key',
    getDevnetPrivateKey(devnetBundlerUtilityIndex),
    // SponsorPaymaster pays only for bundles whose tx.origin is an allowed bundler (the executor);
    // Alto's simulations (estimates, validation, bundle filtering) must run as it too.
    '--eth-call-sender-address',
    getDevnetAccount(devnetBundlerExecutorIndex).address,
    '--rpc-url',
    options.rpcUrl,
    '--port',
    String(options.port),
    '--safe-mode',
    'false',
    '--log-level',
    'error',
  ]
  // Our own NODE_OPTIONS (a test runner's loaders, say) are not Alto's business.
  const { NODE_OPTIONS: _nodeOptions, ...env } = process.env
  const alto = spawnGuardedProcess({
    name: 'alto',
    command: process.execPath,
    args,
    env: { ...env, QUICKLINKS_ALTO_LISTEN_HOST: options.host, NO_COLOR: '1' },
    log: options.log,
  })
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000
  await waitUntilReady({
    process: alto,
    check: () =>
      fetchBundlerInfo(bundlerUrl, 1_000).then(
        (info) => describeWrongBundler(info, options.chainId),
        () => null,
      ),
    timeoutMs: readyTimeoutMs,
    timeoutReason: `the bundler did not answer at ${bundlerUrl} within ${readyTimeoutMs} ms`,
    context: ` (bundler port ${options.port}, chain ${options.chainId})`,
  })
  return { pid: alto.pid, bundlerUrl, stop: alto.stop }
}

export type BundlerInfo = { chainId: number; entryPoints: Address[] }

/**
 * Asks an ERC-4337 bundler for its chain id and EntryPoints. Throws on network errors, timeouts
 * and answers that are not a bundler's.
 */
export async function fetchBundlerInfo(bundlerUrl: string, timeoutMs: number): Promise<BundlerInfo> {
  const [chainId, supported] = await Promise.all([
    callJsonRpc(bundlerUrl, 'eth_chainId', timeoutMs),
    callJsonRpc(bundlerUrl, 'eth_supportedEntryPoints', timeoutMs),
  ])
  if (typeof chainId !== 'string' || !/^0x[0-9a-f]+$/i.test(chainId))
    throw new Error(`unexpected eth_chainId answer ${JSON.stringify(chainId)}`)
  if (
    !Array.isArray(supported) ||
    !supported.every((entry) => typeof entry === 'string' && /^0x[0-9a-fA-F]{40}$/.test(entry))
  )
    throw new Error(`unexpected eth_supportedEntryPoints answer ${JSON.stringify(supported).slice(0, 200)}`)
  return {
    chainId: Number.parseInt(chainId, 16),
    entryPoints: supported.map((entry: string) => getAddress(entry)),
  }
}

/** Why `info` is not the devnet's bundler for `chainId`, or `undefined` when it is. */
export function describeWrongBundler(info: BundlerInfo, chainId: number): string | undefined {
  if (info.chainId !== chainId) return `a bundler for chain ${info.chainId}`
  const missing = bundlerEntryPoints.filter((entryPoint) => !info.entryPoints.includes(entryPoint))
  if (missing.length > 0) return `a bundler without the EntryPoint(s) ${missing.join(', ')}`
  return undefined
}

/** The private key of mnemonic account `index` (the devnet's keys are public). */
export function getDevnetPrivateKey(index: number): Hex {
  const privateKey = getDevnetAccount(index).getHdKey().privateKey
  if (!privateKey) throw new Error(`mnemonic account ${index} has no private key`)
  return toHex(privateKey)
}

/** Alto's CLI script from the installed `@pimlico/alto`; throws with what to run when it is missing. */
export function resolveAltoCli(): string {
  try {
    const entry = createRequire(import.meta.url).resolve('@pimlico/alto')
    return path.join(path.dirname(entry), 'cli', 'alto.js')
  } catch (error) {
    throw new Error('the Alto bundler (@pimlico/alto) is not installed; run npm install', { cause: error })
  }
}

async function callJsonRpc(url: string, method: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const body: unknown = await response.json()
  if (typeof body !== 'object' || body === null || !('result' in body))
    throw new Error(`no result for ${method}: ${JSON.stringify(body).slice(0, 200)}`)
  return body.result
}
