import { createRequire } from 'node:module'
import { fetchChainId } from './probe-rpc-port.ts'
import { spawnGuardedProcess, waitUntilReady } from './spawn-guarded-process.ts'

export type SpawnAnvilOptions = {
  host: string
  port: number
  chainId: number
  mnemonic: string
  accountCount: number
  /** Loaded at start when it exists and written when anvil stops (anvil's `--state`). */
  stateFile?: string
  /** Receives anvil's own output (errors mostly: it runs with `--silent`). */
  log?: (line: string) => void
  /** How long to wait for the RPC to answer. */
  readyTimeoutMs?: number
}

export type AnvilProcess = {
  pid: number
  rpcUrl: string
  /** Stops anvil (which writes its state file on the way out) and resolves once it has exited. */
  stop(): Promise<void>
}

/**
 * Starts one anvil from the `@foundry-rs/anvil` npm package and resolves once its JSON-RPC answers
 * with the expected chain id. Fails when the binary is not installed, when anvil exits early (a
 * taken port, an unreadable state file; its output is in the message) or does not answer in time.
 */
export async function spawnAnvil(options: SpawnAnvilOptions): Promise<AnvilProcess> {
  const rpcUrl = buildRpcUrl(options.host, options.port)
  const args = [
    '--host',
    options.host,
    '--port',
    String(options.port),
    '--chain-id',
    String(options.chainId),
    '--mnemonic',
    options.mnemonic,
    '--accounts',
    String(options.accountCount),
    // Pinned rather than anvil's moving default: Prague brings EIP-7702 (smart accounts on an EOA).
    '--hardfork',
    'prague',
    '--silent',
    ...(options.stateFile ? ['--state', options.stateFile] : []),
  ]
  const anvil = spawnGuardedProcess({ name: 'anvil', command: resolveAnvilBinary(), args, log: options.log })
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000
  await waitUntilReady({
    process: anvil,
    check: () =>
      fetchChainId(rpcUrl, 1_000).then(
        (chainId) => (chainId === options.chainId ? undefined : `anvil answered with chain id ${chainId}`),
        () => null,
      ),
    timeoutMs: readyTimeoutMs,
    timeoutReason: `anvil did not answer at ${rpcUrl} within ${readyTimeoutMs} ms`,
    context: ` (port ${options.port}, chain ${options.chainId})`,
  })
  return { pid: anvil.pid, rpcUrl, stop: anvil.stop }
}

/**
 * The path of the anvil binary for this platform from the `@foundry-rs/anvil-<os>-<arch>` package,
 * run directly rather than through the npm package's Node wrapper so that signals reach anvil
 * itself. Throws with the package to install when it is missing.
 */
export function resolveAnvilBinary(): string {
  const architecture = process.arch === 'x64' ? 'amd64' : process.arch
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${architecture}`
  const executable = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  try {
    const requireFromDevnet = createRequire(import.meta.url)
    const requireFromAnvil = createRequire(requireFromDevnet.resolve('@foundry-rs/anvil/package.json'))
    return requireFromAnvil.resolve(`${platformPackage}/bin/${executable}`)
  } catch (error) {
    throw new Error(
      `the anvil binary is not installed (${platformPackage}, an optional dependency of @foundry-rs/anvil); run npm install`,
      { cause: error },
    )
  }
}

/** `http://host:port`, with IPv6 hosts bracketed and wildcard hosts replaced by loopback. */
export function buildRpcUrl(host: string, port: number): string {
  const reachableHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `http://${reachableHost.includes(':') ? `[${reachableHost}]` : reachableHost}:${port}`
}
