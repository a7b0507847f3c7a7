import { connect } from 'node:net'

/** What answers on a port: nothing, an Ethereum JSON-RPC node (with its chain id), or something else. */
export type PortProbe =
  | { status: 'free' }
  | { status: 'rpc'; chainId: number }
  | { status: 'other'; detail: string }

/**
 * Finds out what listens on `host:port`, so the devnet can reuse its own running chain and refuse
 * to start on a port another program holds. Never throws: anything unexpected is `other`.
 */
export async function probeRpcPort(host: string, port: number, rpcUrl: string): Promise<PortProbe> {
  const connection = await connectOnce(host, port)
  if (connection === 'refused') return { status: 'free' }
  if (connection !== 'open') return { status: 'other', detail: connection }
  try {
    return { status: 'rpc', chainId: await fetchChainId(rpcUrl, 2_000) }
  } catch (error) {
    return {
      status: 'other',
      detail: `a program that is not an Ethereum JSON-RPC node (${error instanceof Error ? error.message : String(error)})`,
    }
  }
}

/**
 * Asks a JSON-RPC endpoint for `eth_chainId`. Throws on network errors, timeouts and answers that
 * are not a JSON-RPC chain id.
 */
export async function fetchChainId(rpcUrl: string, timeoutMs: number): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const body: unknown = await response.json()
  if (
    typeof body === 'object' &&
    body !== null &&
    'result' in body &&
    typeof body.result === 'string' &&
    /^0x[0-9a-f]+$/i.test(body.result)
  ) {
    return Number.parseInt(body.result, 16)
  }
  throw new Error(`unexpected eth_chainId answer ${JSON.stringify(body).slice(0, 200)}`)
}

/** 'open', 'refused', or a description of what else happened. */
function connectOnce(host: string, port: number): Promise<string> {
  const connectHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return new Promise((resolve) => {
    const socket = connect({ host: connectHost, port })
    socket.setTimeout(1_000)
    socket.once('connect', () => {
      socket.destroy()
      resolve('open')
    })
    socket.once('timeout', () => {
      socket.destroy()
      resolve('a program that accepts connections but does not answer')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy()
      resolve(
        error.code === 'ECONNREFUSED' ? 'refused' : `an unreachable address (${error.code ?? error.message})`,
      )
    })
  })
}
