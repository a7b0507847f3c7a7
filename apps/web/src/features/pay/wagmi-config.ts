import type { RoutingChain } from '@quicklinks/core/api/routing'
import { custom, defineChain, type EIP1193Provider, type Chain as ViemChain } from 'viem'
import { type Config, type CreateConnectorFn, createConfig, injected } from 'wagmi'
import { getConnection } from 'wagmi/actions'
import type { WalletConnectSetting } from './wallet-connect-setting'

/** A catalogue chain as wagmi and viem know it; its RPC URL is only offered to a wallet on 4902. */
export function toViemChain(chain: RoutingChain): ViemChain {
  const explorer = chain.blockExplorerUrl
  return defineChain({
    id: chain.chainId,
    name: chain.networkName,
    nativeCurrency: {
      name: chain.nativeCurrency.symbol,
      symbol: chain.nativeCurrency.symbol,
      decimals: chain.nativeCurrency.decimals,
    },
    rpcUrls: {
      default: { http: chain.rpcUrl.length === 0 ? [] : [chain.rpcUrl] },
    },
    ...(explorer.length > 0
      ? { blockExplorers: { default: { name: chain.networkName, url: explorer } } }
      : {}),
  })
}

const configs = new Map<string, Config>()

/**
 * The pay modal's wagmi config (one per chain list, WalletConnect project id and page): the injected
 * connector plus every EIP-6963 wallet, WalletConnect when the server gave a project id (its
 * connector made from it, see wallet-connect-setting.ts), no persisted reconnect. Every read
 * (allowance, receipts) goes through the connected wallet's own EIP-1193 provider, so the browser
 * needs no RPC access of its own. Throws 'Chain not configured.' for an empty chain list.
 */
export function getPayWagmiConfig(
  chains: readonly RoutingChain[],
  walletConnect: WalletConnectSetting,
): Config {
  const key = `${chains.map((chain) => chain.chainId).join(',')}|${walletConnect.isAvailable ? walletConnect.projectId : ''}`
  const cached = configs.get(key)
  if (cached !== undefined) return cached
  const viemChains = chains.map(toViemChain)
  const [first, ...rest] = viemChains
  if (first === undefined) throw new Error('Chain not configured.')
  let config: Config | undefined
  const walletTransport = custom({
    async request({ method, params }) {
      const connector = config === undefined ? undefined : getConnection(config).connector
      if (connector === undefined) throw new Error('Connector not connected.')
      const provider = (await connector.getProvider()) as EIP1193Provider
      return provider.request({ method, params } as Parameters<EIP1193Provider['request']>[0])
    },
  })
  const connectors: CreateConnectorFn[] = [injected({ shimDisconnect: true })]
  if (walletConnect.isAvailable) connectors.push(walletConnect.connector)
  const created = createConfig({
    chains: [first, ...rest],
    connectors,
    multiInjectedProviderDiscovery: true,
    // Receipt waits poll the wallet every second (anvil mines at once; real chains need no faster).
    pollingInterval: 1000,
    storage: null,
    transports: Object.fromEntries(viemChains.map((chain) => [chain.id, walletTransport])),
  })
  config = created
  configs.set(key, created)
  return created
}
