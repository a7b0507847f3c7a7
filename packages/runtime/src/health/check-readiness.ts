import { existsSync } from 'node:fs'
import { entryPointV08Address } from '@quicklinks/core/api/smart-accounts'
import { withTimeout } from '@quicklinks/core/with-timeout'
import { getDevnetDeploymentOrThrow } from '../devnet/get-devnet-deployment-or-throw.ts'

/** One dependency's answer: whether it is usable, how long it took, and why not. */
export type ReadinessCheck = { status: 'ok' | 'failed'; ms: number; error?: string }

export type Readiness = {
  status: 'ready' | 'not_ready'
  /**
   * 'database', then 'chain <id>' per configured chain, then 'bundler <id>' per BUNDLER_URL_<id>,
   * each in chain id order, then 'solana' when SOLANA_RPC_URL is set.
   */
  checks: Record<string, ReadinessCheck>
}

/** The chain endpoints the app server's readiness asks (from its config: docs/decisions/0023). */
export type ReadinessChains = {
  /** RPC_URL_<chainId>: JSON-RPC per chain id. */
  rpcUrls: Readonly<Record<number, string>>
  /** The devnet deployment, whose chains are asked too when the file exists. */
  devnetDeploymentFile: string
  /** SOLANA_RPC_URL, asked `getHealth` when set. */
  solanaRpcUrl?: string | undefined
  /** BUNDLER_URL_<chainId>: ERC-4337 bundlers per chain id. */
  bundlerUrls: Readonly<Record<number, string>>
}

export type CheckReadinessOptions = {
  /** Asks the database `select 1` (createDatabaseProbe: on Postgres, apart from the app's pool). */
  probeDatabase: () => Promise<unknown>
  /** Also ask these chains' RPCs, bundlers and Solana node (the app server); the standalone signer has none. */
  chains?: ReadinessChains
  /** Per check (default 2 000 ms). */
  timeoutMs?: number
}

/**
 * Asks every dependency a request needs whether it answers now: the database (`select 1`) and,
 * with `chains`, each chain's RPC (`eth_chainId`, which must name that chain), each
 * ERC-4337 bundler of BUNDLER_URL_<chainId> (`eth_chainId` naming its chain, and
 * `eth_supportedEntryPoints` listing EntryPoint v0.8, the one the smart accounts use) and the
 * Solana node of SOLANA_RPC_URL (`getHealth`, which must answer "ok"). The chains are
 * RPC_URL_<chainId> and, when its file exists, the devnet deployment's. Every check
 * runs at once and gives up after `timeoutMs`; nothing throws. Errors never carry an RPC URL
 * (it may hold an API key).
 */
export async function checkReadiness(options: CheckReadinessOptions): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2_000
  const { chains, devnetError } = options.chains
    ? await listChainRpcUrls(options.chains)
    : { chains: [], devnetError: undefined }
  const named: [string, Promise<ReadinessCheck>][] = [
    ['database', runCheck(timeoutMs, options.probeDatabase)],
    ...chains.map(({ chainId, rpcUrl }): [string, Promise<ReadinessCheck>] => [
      `chain ${chainId}`,
      runCheck(timeoutMs, (signal) => expectChainId(rpcUrl, chainId, signal)),
    ]),
  ]
  if (options.chains) {
    const bundlers = Object.entries(options.chains.bundlerUrls)
      .map(([chainId, url]) => ({ chainId: Number(chainId), url }))
      .sort((a, b) => a.chainId - b.chainId)
    for (const { chainId, url } of bundlers) {
      named.push([`bundler ${chainId}`, runCheck(timeoutMs, (signal) => expectBundler(url, chainId, signal))])
    }
    const solanaRpcUrl = options.chains.solanaRpcUrl
    if (solanaRpcUrl !== undefined) {
      named.push(['solana', runCheck(timeoutMs, (signal) => expectSolanaHealthy(solanaRpcUrl, signal))])
    }
  }
  const checks: Record<string, ReadinessCheck> = {}
  for (const [name, check] of named) checks[name] = await check
  // The devnet file exists but cannot be read: its chains are unknown, so not ready.
  if (devnetError !== undefined) checks.devnet = { status: 'failed', ms: 0, error: devnetError }
  const isReady = Object.values(checks).every((check) => check.status === 'ok')
  return { status: isReady ? 'ready' : 'not_ready', checks }
}

/** RPC_URL_<chainId> over the devnet deployment's URL, per chain id, in chain id order. */
async function listChainRpcUrls(
  config: Pick<ReadinessChains, 'rpcUrls' | 'devnetDeploymentFile'>,
): Promise<{ chains: { chainId: number; rpcUrl: string }[]; devnetError: string | undefined }> {
  const urls = new Map<number, string>()
  let devnetError: string | undefined
  // No devnet file: a deployment on real chains, or a devnet that has not deployed yet.
  if (existsSync(config.devnetDeploymentFile)) {
    try {
      const deployment = await getDevnetDeploymentOrThrow(config.devnetDeploymentFile)
      for (const chain of deployment.chains) urls.set(chain.chainId, chain.rpcUrl)
    } catch {
      devnetError = 'the devnet deployment file cannot be read'
    }
  }
  for (const [chainId, rpcUrl] of Object.entries(config.rpcUrls)) urls.set(Number(chainId), rpcUrl)
  const chains = [...urls].sort(([a], [b]) => a - b).map(([chainId, rpcUrl]) => ({ chainId, rpcUrl }))
  return { chains, devnetError }
}

async function runCheck(
  timeoutMs: number,
  probe: (signal: AbortSignal) => Promise<unknown>,
): Promise<ReadinessCheck> {
  const startedAt = performance.now()
  // The signal stops a fetch; the race bounds a probe that cannot be stopped (a database query).
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    await withTimeout(probe(signal), timeoutMs, () => new Error(`no answer within ${timeoutMs} ms`))
    return { status: 'ok', ms: Math.round(performance.now() - startedAt) }
  } catch (error) {
    const message = signal.aborted
      ? `no answer within ${timeoutMs} ms`
      : error instanceof Error
        ? error.message
        : String(error)
    return { status: 'failed', ms: Math.round(performance.now() - startedAt), error: message }
  }
}

async function expectChainId(
  rpcUrl: string,
  chainId: number,
  signal: AbortSignal,
  what = 'the RPC',
): Promise<void> {
  const result = await askRpc(rpcUrl, 'eth_chainId', signal, what)
  if (typeof result !== 'string' || !/^0x[0-9a-f]+$/i.test(result)) {
    throw new Error(`${what} did not answer eth_chainId`)
  }
  const answered = Number.parseInt(result, 16)
  if (answered !== chainId) throw new Error(`${what} serves chain ${answered}, not ${chainId}`)
}

/**
 * An ERC-4337 bundler for `chainId` that accepts EntryPoint v0.8's operations: a bundler of another
 * chain, or one without v0.8, would take the page's user operations only to refuse them.
 */
async function expectBundler(bundlerUrl: string, chainId: number, signal: AbortSignal): Promise<void> {
  await expectChainId(bundlerUrl, chainId, signal, 'the bundler')
  const entryPoints = await askRpc(bundlerUrl, 'eth_supportedEntryPoints', signal, 'the bundler')
  const wanted = entryPointV08Address.toLowerCase()
  if (!Array.isArray(entryPoints) || !entryPoints.some((each) => String(each).toLowerCase() === wanted)) {
    throw new Error(`the bundler does not support EntryPoint v0.8 (${entryPointV08Address})`)
  }
}

/** A Solana node's `getHealth`: "ok", else the node is behind or unhealthy. */
async function expectSolanaHealthy(rpcUrl: string, signal: AbortSignal): Promise<void> {
  const result = await askRpc(rpcUrl, 'getHealth', signal)
  if (result !== 'ok') throw new Error('the Solana node is not healthy (getHealth did not answer "ok")')
}

/**
 * One JSON-RPC call without params: its `result` (undefined when it answered an error). Errors
 * start with `what` ('the RPC', 'the bundler') and never quote the URL.
 */
async function askRpc(
  rpcUrl: string,
  method: string,
  signal: AbortSignal,
  what = 'the RPC',
): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      signal,
    })
  } catch (error) {
    if (signal.aborted) throw error
    // fetch's own messages can quote the URL; say only what kind of failure it was.
    throw new Error(`${what} cannot be reached`)
  }
  if (!response.ok) throw new Error(`${what} answered HTTP ${response.status}`)
  const body: unknown = await response.json().catch((error: unknown) => {
    if (signal.aborted) throw error
    throw new Error(`${what} answered without JSON`)
  })
  return typeof body === 'object' && body !== null && 'result' in body ? body.result : undefined
}
