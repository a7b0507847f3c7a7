import { createPublicClient, http, type PublicClient } from 'viem'

const clients = new Map<string, PublicClient>()

/**
 * One viem public client per RPC URL, reused across requests and workers so keep-alive
 * connections are shared. Never throws; a dead RPC fails at the first call.
 */
export function getLocalPublicClient(rpcUrl: string): PublicClient {
  let client = clients.get(rpcUrl)
  if (!client) {
    // Receipt waits poll every 250 ms (viem's default is 4 s): the relayer and tracker wait on them.
    client = createPublicClient({
      pollingInterval: 250,
      transport: http(rpcUrl, { retryCount: 1, timeout: 15_000 }),
    })
    clients.set(rpcUrl, client)
  }
  return client
}
