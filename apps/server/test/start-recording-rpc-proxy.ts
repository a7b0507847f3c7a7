import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RecordingRpcProxy = {
  /** The proxy's URL; set it as RPC_URL_<chainId> (config.rpcUrls). */
  url: string
  /** Every JSON-RPC method the proxy forwarded or refused, in order (batch entries one by one). */
  methods: string[]
  /** How many `eth_call`s arrived. */
  countCalls(method?: string): number
  /** While true, the proxy answers every request with HTTP 500 instead of forwarding it. */
  failing: boolean
  close(): Promise<void>
}

/**
 * A JSON-RPC proxy on a free loopback port that forwards to `targetUrl` (a real anvil) and
 * records the methods it sees, so a test can count eth_calls; `failing` makes it answer 500.
 */
export async function startRecordingRpcProxy(targetUrl: string): Promise<RecordingRpcProxy> {
  const methods: string[] = []
  const proxy: RecordingRpcProxy = {
    url: '',
    methods,
    failing: false,
    countCalls: (method = 'eth_call') => methods.filter((recorded) => recorded === method).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', async () => {
      try {
        const body = JSON.parse(text) as { method?: string } | { method?: string }[]
        for (const entry of Array.isArray(body) ? body : [body]) methods.push(entry.method ?? '')
      } catch {
        methods.push('(unparsable)')
      }
      if (proxy.failing) {
        response.writeHead(500, { 'content-type': 'text/plain' })
        response.end('proxy failing on purpose')
        return
      }
      try {
        const upstream = await fetch(targetUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        })
        response.writeHead(upstream.status, { 'content-type': 'application/json' })
        response.end(await upstream.text())
      } catch {
        response.writeHead(502)
        response.end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}
