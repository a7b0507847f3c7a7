import type { SmartAccountTransports } from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { http, type Transport } from 'viem'
import { type ApiClient, api } from '../../lib/api-client'
import { apiBaseUrl } from '../../lib/env'
import { relayTransport } from '../swap/embedded-wallet-connector'

/** A bundler call can wait for the node (estimates, eth_sendUserOperation): more than viem's 10 s. */
const appServerRpcTimeoutMs = 30_000

/**
 * A viem HTTP transport to a JSON-RPC endpoint of the app server (this page's origin: CSP
 * `connect-src 'self'`). Every request goes through the API client, so it carries the session
 * cookie and the CSRF header, refreshing the token once when the server answers 403. JSON-RPC
 * errors come back as viem's RpcRequestError with the answer's `data` (a sponsor's refusal reason).
 */
export function appServerRpcTransport(path: string, client: ApiClient = api): Transport {
  const origin = apiBaseUrl.length > 0 ? apiBaseUrl : window.location.origin
  return http(new URL(path, origin).toString(), {
    timeout: appServerRpcTimeoutMs,
    retryCount: 0,
    fetchFn: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input.toString())
      return client.send(`${url.pathname}${url.search}`, {
        method: init?.method ?? 'POST',
        body: typeof init?.body === 'string' ? init.body : undefined,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        ...(init?.signal == null ? {} : { signal: init.signal }),
      })
    },
  })
}

/**
 * How the smart wallet reaches chain `chainId`, always through the app server: the chain's node
 * through the RPC relay (POST /api/{provider}/rpc/{chainId}), the ERC-4337 bundler (POST
 * /api/bundler/{chainId}) and the ERC-7677 sponsor service (POST /api/paymaster/{chainId}) when
 * the chain is sponsored.
 */
export function smartAccountTransports(chainId: number, sponsored: boolean): SmartAccountTransports {
  return {
    rpc: relayTransport(chainId),
    bundler: appServerRpcTransport(`/api/bundler/${chainId}`),
    ...(sponsored ? { paymaster: appServerRpcTransport(`/api/paymaster/${chainId}`) } : {}),
  }
}
