import { custom, defineChain, type EIP1193Provider, type Chain as ViemChain } from 'viem'
import { type Config, createConfig, injected } from 'wagmi'
import { getConnection } from 'wagmi/actions'
import { walletConnect } from 'wagmi/connectors/walletConnect'
import { walletConnectProjectId } from '../../lib/env'
import type { Chain } from '../routing/catalogue'

/** A catalogue chain as wagmi and viem know it; its RPC URL is only offered to a wallet on 4902. */
export function toViemChain(chain: Chain): ViemChain {
  const explorer = chain.blockExplorerUrl ?? ''
  return defineChain({
    id: chain.chainId,
    name: chain.networkName,
    nativeCurrency: {
      name: chain.nativeCurrency.symbol,
      symbol: chain.nativeCurrency.symbol,
      decimals: chain.nativeCurrency.decimals,
    },
    rpcUrls: {
      default: { http: chain.rpcUrl === undefined || chain.rpcUrl.length === 0 ? [] : [chain.rpcUrl] },
    },
    ...(explorer.length > 0
      ? { blockExplorers: { default: { name: chain.networkName, url: explorer } } }
      : {}),
  })
}

const configs = new Map<string, Config>()

/**
 * The pay modal's wagmi config (one per chain list and page): the injected connector plus every
 * EIP-6963 wallet, WalletConnect when a project id is configured, no persisted reconnect. Every read
 * (allowance, receipts) goes through the connected wallet's own EIP-1193 provider, so the browser
 * needs no RPC access of its own.
 */
export function getPayWagmiConfig(chains: readonly Chain[]): Config {
  const key = chains.map((chain) => chain.chainId).join(',')
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
  const connectors = [injected({ shimDisconnect: true })]
  const created = createConfig({
    chains: [first, ...rest],
    connectors:
      walletConnectProjectId.length > 0
        ? [...connectors, walletConnect({ projectId: walletConnectProjectId, showQrModal: true })]
        : connectors,
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
