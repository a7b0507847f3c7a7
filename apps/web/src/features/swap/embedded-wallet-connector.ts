import { relayedJsonRpcMethods, rpcRelayResponseSchema } from '@quicklinks/core/api/json-rpc-relay'
import type { RoutingChain } from '@quicklinks/core/api/routing'
import {
  type Address,
  createWalletClient,
  custom,
  type EIP1193RequestFn,
  type LocalAccount,
  SwitchChainError,
  type Transport,
} from 'viem'
import { type Config, createConfig, createConnector } from 'wagmi'
import { api } from '../../lib/api-client'
import { toViemChain } from '../pay/wagmi-config'
import { getRoutingProvider } from '../routing/routing-provider'

/** A JSON-RPC error as the node answered it, kept whole so viem can map its code. */
class RelayedRpcError extends Error {
  override readonly name = 'RelayedRpcError'
  readonly code: number
  readonly data: unknown
  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error.message)
    this.code = error.code
    this.data = error.data
  }
}

let requestId = 0

const relayedMethods: ReadonlySet<string> = new Set(relayedJsonRpcMethods)

/**
 * A viem transport to chain `chainId` through the app server's relay, POST
 * /api/{provider}/rpc/{chainId} (docs/api.md#rpc-relay): the page's CSP lets it connect to its own
 * origin only, and the API client adds the session cookie and the CSRF header. A JSON-RPC error
 * rejects with its code and message; a refused call rejects with the API's AppError.
 */
export function relayTransport(chainId: number): Transport {
  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    // What the relay refuses is answered here as a node would (viem then falls back, e.g. from
    // eth_fillTransaction to its own nonce, gas and fee reads) instead of a 422 round trip.
    if (!relayedMethods.has(method)) {
      throw new RelayedRpcError({
        code: -32601,
        message: `The method ${method} does not exist / is not available.`,
      })
    }
    const provider = await getRoutingProvider()
    requestId += 1
    const answer = await api.request(
      `/api/${encodeURIComponent(provider)}/rpc/${chainId}`,
      rpcRelayResponseSchema,
      {
        method: 'POST',
        body: { jsonrpc: '2.0', id: requestId, method, params: Array.isArray(params) ? params : [] },
        queueWhenOffline: false,
        fallbackMessage: 'The network did not answer. Try again shortly.',
      },
    )
    if (answer.error !== undefined) throw new RelayedRpcError(answer.error)
    return answer.result
  }
  return custom({ request: request as EIP1193RequestFn })
}

export type EmbeddedWalletConnectorOptions = {
  /** The embedded wallet as a viem account: it signs through the signer (packages/wallet). */
  account: LocalAccount
}

/**
 * The embedded wallet as a wagmi connector, so the pay modal's confirm, approve, send and track
 * code runs unchanged for it (docs/decisions/0017). Always 'connected' to its one account; a chain
 * switch is local (the wallet has no chain of its own); every client it hands wagmi is a viem
 * wallet client with the signer-backed account over the relay transport, so viem prepares the
 * transaction (nonce, gas, fees), the signer signs its hash, and the raw transaction goes out
 * through the relay.
 */
export function embeddedWalletConnector({ account }: EmbeddedWalletConnectorOptions) {
  return createConnector((config) => {
    let currentChainId: number = config.chains[0].id
    const findChain = (chainId: number) => config.chains.find((chain) => chain.id === chainId)
    const provider = {
      request: async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
        if (method === 'eth_chainId') return `0x${currentChainId.toString(16)}`
        if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [account.address]
        return relayTransport(currentChainId)({ chain: findChain(currentChainId) }).request({
          method,
          params,
        } as never)
      },
    }
    return {
      id: 'embeddedWallet',
      name: 'Quick Links wallet',
      type: 'embeddedWallet',
      async connect(parameters) {
        if (parameters?.chainId !== undefined && findChain(parameters.chainId) !== undefined) {
          currentChainId = parameters.chainId
        }
        return { accounts: [account.address], chainId: currentChainId } as never
      },
      async disconnect() {},
      async getAccounts(): Promise<readonly Address[]> {
        return [account.address]
      },
      async getChainId() {
        return currentChainId
      },
      async getProvider() {
        return provider
      },
      async getClient(parameters) {
        const chainId = parameters?.chainId ?? currentChainId
        return createWalletClient({ account, chain: findChain(chainId), transport: relayTransport(chainId) })
      },
      async isAuthorized() {
        return true
      },
      async switchChain({ chainId }) {
        const chain = findChain(chainId)
        if (chain === undefined) throw new SwitchChainError(new Error(`Chain ${chainId} is not configured.`))
        currentChainId = chainId
        config.emitter.emit('change', { chainId })
        return chain
      },
      onAccountsChanged() {},
      onChainChanged(chainId) {
        config.emitter.emit('change', { chainId: Number(chainId) })
      },
      onDisconnect() {
        config.emitter.emit('disconnect')
      },
    }
  })
}

/**
 * The Self Swap's wagmi config: the catalogue's chains, the embedded wallet as its only connector,
 * and every read (allowance, receipts) through the relay. No storage: nothing reconnects by itself.
 */
export function createEmbeddedWalletConfig(chains: readonly RoutingChain[], account: LocalAccount): Config {
  const viemChains = chains.map(toViemChain)
  const [first, ...rest] = viemChains
  if (first === undefined) throw new Error('Chain not configured.')
  return createConfig({
    chains: [first, ...rest],
    connectors: [embeddedWalletConnector({ account })],
    multiInjectedProviderDiscovery: false,
    pollingInterval: 1000,
    storage: null,
    transports: Object.fromEntries(viemChains.map((chain) => [chain.id, relayTransport(chain.id)])),
  })
}
