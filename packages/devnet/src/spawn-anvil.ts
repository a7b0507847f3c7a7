import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { fetchChainId } from './probe-rpc-port.ts'

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
 * A tiny shell guard between us and anvil. It holds the reading end of a pipe whose only writer
 * is this Node process: when we close it (`stop()`) or the kernel does (we died, even by SIGKILL),
 * `read` returns and anvil gets SIGTERM, so no anvil outlives its parent and keeps a port.
 * anvil's own exit ends the guard too, so we notice crashes.
 */
const watchdogScript = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'anvil_pid=$!',
  '(read -r _ <&3; kill -TERM "$anvil_pid" 2>/dev/null) &',
  'watcher_pid=$!',
  'exec 3<&-',
  'wait "$anvil_pid"',
  'status=$?',
  'kill "$watcher_pid" 2>/dev/null',
  'exit "$status"',
].join('\n')

const stopTimeoutMs = 15_000

/**
 * Starts one anvil from the `@foundry-rs/anvil` npm package and resolves once its JSON-RPC answers
 * with the expected chain id. Fails when the binary is not installed, when anvil exits early (a
 * taken port, an unreadable state file; its output is in the message) or does not answer in time.
 */
export async function spawnAnvil(options: SpawnAnvilOptions): Promise<AnvilProcess> {
  const log = options.log ?? (() => {})
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
  const binary = resolveAnvilBinary()
  const child =
    process.platform === 'win32'
      ? spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : // detached: its own process group, so a terminal's Ctrl-C reaches only us and we stop it in order.
        spawn('/bin/sh', ['-c', watchdogScript, 'anvil-watchdog', binary, ...args], {
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
        })

  const output: string[] = []
  const onOutput = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue
      output.push(line)
      if (output.length > 20) output.shift()
      log(line)
    }
  }
  child.stdout?.on('data', onOutput)
  child.stderr?.on('data', onOutput)

  let spawnFailure: Error | undefined
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code))
    // A process that never started emits 'error' and no 'exit'.
    child.once('error', (error) => {
      spawnFailure = error
      resolve(null)
    })
  })
  let hasExited = false
  void exited.then(() => {
    hasExited = true
  })
  // Closing our end of the guard's pipe after it died must not crash us with EPIPE.
  child.stdin?.on('error', () => {})

  const stop = async (): Promise<void> => {
    if (hasExited) return
    if (child.stdin) child.stdin.end()
    else child.kill('SIGTERM')
    const timer = setTimeout(() => killGroup(child), stopTimeoutMs)
    await exited
    clearTimeout(timer)
  }

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000)
  for (;;) {
    const failure = await Promise.race([
      exited.then((code) =>
        spawnFailure ? `could not run ${binary}: ${spawnFailure.message}` : `anvil exited with code ${code}`,
      ),
      fetchChainId(rpcUrl, 1_000).then(
        (chainId) => (chainId === options.chainId ? undefined : `anvil answered with chain id ${chainId}`),
        () => null,
      ),
    ])
    if (failure === undefined) {
      return { pid: child.pid ?? -1, rpcUrl, stop }
    }
    if (failure !== null || Date.now() > deadline) {
      await stop()
      const reason =
        failure ?? `anvil did not answer at ${rpcUrl} within ${options.readyTimeoutMs ?? 30_000} ms`
      throw new Error(`${reason} (port ${options.port}, chain ${options.chainId})${formatOutput(output)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
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

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    if (process.platform === 'win32') child.kill('SIGKILL')
    else process.kill(-child.pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

function formatOutput(lines: string[]): string {
  return lines.length === 0 ? '' : `\n${lines.map((line) => `  anvil: ${line}`).join('\n')}`
}
