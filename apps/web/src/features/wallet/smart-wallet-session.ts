import type { SmartAccountStore } from '@quicklinks/wallet/smart-accounts/smart-account-store'
import type {
  SmartAccountChainConfig,
  SmartWallet,
} from '@quicklinks/wallet/smart-accounts/smart-wallet-types'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { type Address, getAddress, type Hex } from 'viem'
import { getPublicConfig } from '../../lib/public-config'
import { sessionQueryOptions } from '../auth/session'
import { getWalletAccount, useWalletStatus } from '../auth/wallet-session'
import { smartAccountTransports } from './smart-account-transports'

/**
 * The signed-in user's smart account (issue 16): the embedded wallet's key (the signer's viem
 * account) owns one ERC-4337 account, at the same address on every chain GET /api/config's
 * `smartAccounts` names; its calls reach the node, the bundler and the sponsor service through the
 * app server. The SDK (packages/wallet/src/smart-accounts) loads on first use.
 */

/** One chain the smart account works on, as GET /api/config names it. */
export type SmartAccountChain = SmartAccountChainConfig & { sponsored: boolean }

export type SmartWalletSession = {
  wallet: SmartWallet
  /** The account's counterfactual address (the same on every chain). */
  address: Address
  /** The key that owns it (the embedded wallet's EOA). */
  owner: Address
  chains: SmartAccountChain[]
  /** The sponsor policy a send asks for by default; null: every send pays its own gas. */
  defaultPolicyId: string | null
  /** The server's routing provider ('local' on the devnet): the catalogue and the explorer links follow it. */
  routingProvider: string
}

const sessions = new Map<string, Promise<SmartWalletSession>>()

let accountStore: Promise<SmartAccountStore> | undefined

/**
 * The persisted smart-account state (chain, connections, each account type's status and address
 * per chain; localStorage, version 14), created on first use. Logout removes its stored copy
 * (`logoutWallet`); the next session starts it over.
 */
function getSmartAccountStore(): Promise<SmartAccountStore> {
  accountStore ??= import('@quicklinks/wallet/smart-accounts/smart-account-store').then((module) =>
    module.createSmartAccountStore(),
  )
  return accountStore
}

/**
 * Builds (once per owner) the smart wallet of the connected embedded wallet. Rejects when the
 * wallet is not connected, when the server has no smart-account chains, or when the account's
 * address cannot be read; a failed build is not kept.
 */
export function loadSmartWallet(): Promise<SmartWalletSession> {
  return (async () => {
    const owner = await getWalletAccount()
    const key = owner.address.toLowerCase()
    let session = sessions.get(key)
    if (session === undefined) {
      session = buildSession()
      sessions.set(key, session)
      session.catch(() => sessions.delete(key))
    }
    return session
  })()
}

async function buildSession(): Promise<SmartWalletSession> {
  const [owner, config, { createSmartWallet }, accountStore] = await Promise.all([
    getWalletAccount(),
    getPublicConfig(),
    import('@quicklinks/wallet/smart-accounts/create-smart-wallet'),
    getSmartAccountStore(),
  ])
  const smartAccounts = config.smartAccounts
  if (smartAccounts == null || smartAccounts.chains.length === 0) {
    throw new Error('Smart accounts are not set up on this server.')
  }
  const chains = smartAccounts.chains.map((chain) => ({
    ...chain,
    entryPoint: getAddress(chain.entryPoint),
    accountFactory: getAddress(chain.accountFactory),
    multiOwnerAccountFactory: getAddress(chain.multiOwnerAccountFactory),
    simple7702Account: getAddress(chain.simple7702Account),
  }))
  const sponsoredChains = new Set(chains.filter((chain) => chain.sponsored).map((chain) => chain.chainId))
  // The persisted store describes this owner's accounts only: it starts over for each session.
  const store = accountStore.getState()
  store.reset()
  for (const chain of chains) {
    store.setConnection(chain.chainId, {
      transport: `/api/bundler/${chain.chainId}`,
      policyId: chain.sponsored ? smartAccounts.defaultPolicyId : null,
      policyToken: null,
    })
  }
  store.setChain(chains[0]?.chainId ?? null)
  const wallet = createSmartWallet({
    owner,
    chains,
    transports: (chainId) => smartAccountTransports(chainId, sponsoredChains.has(chainId)),
    onAccountState: (chainId, accountType, state) =>
      accountStore.getState().setAccountState(chainId, accountType, state),
  })
  const address = await wallet.getAddress()
  return {
    wallet,
    address,
    owner: owner.address,
    chains,
    defaultPolicyId: smartAccounts.defaultPolicyId,
    routingProvider: config.routingProvider,
  }
}

export const smartWalletKeys = {
  all: ['smart-wallet'] as const,
  session: (owner: string) => ['smart-wallet', owner.toLowerCase()] as const,
  deployed: (address: string, chainId: number) =>
    ['smart-wallet', 'deployed', address.toLowerCase(), chainId] as const,
}

/** The smart wallet as a query, keyed by the signed-in user's embedded-wallet address. */
export function smartWalletQueryOptions(owner: string) {
  return queryOptions({
    queryKey: smartWalletKeys.session(owner),
    queryFn: loadSmartWallet,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  })
}

/**
 * The signed-in user's embedded-wallet address as the session query holds it, without asking the
 * server (the route guards keep that query fresh); undefined while there is none.
 */
export function useCachedSessionAddress(): string | undefined {
  const { data } = useQuery({ ...sessionQueryOptions(), enabled: false })
  return typeof data?.address === 'string' && data.address.length > 0 ? data.address : undefined
}

/**
 * The signed-in user's smart wallet: pending until the embedded wallet is connected and the
 * account's address is known; `error` when it cannot be built.
 */
export function useSmartWallet() {
  const owner = useCachedSessionAddress() ?? ''
  const status = useWalletStatus()
  return useQuery({ ...smartWalletQueryOptions(owner), enabled: status === 'CONNECTED' && owner.length > 0 })
}

/** Whether the account has code on `chainId` (it deploys with its first send). */
export function smartAccountDeployedQueryOptions(session: SmartWalletSession, chainId: number) {
  return queryOptions({
    queryKey: smartWalletKeys.deployed(session.address, chainId),
    queryFn: () => session.wallet.isDeployed(chainId),
    staleTime: 15_000,
  })
}

/**
 * Where a transaction of `chainId` can be looked at: the catalogue chain's explorer
 * (`{blockExplorerUrl}/tx/{hash}`, as the pay tracker's records link), else on the devnet (the
 * local routing provider, whose chains have no explorer) the app server's dev explorer
 * `/api/dev/chains/{chainId}/tx/{hash}`; null when there is none.
 */
export function getTransactionUrl(input: {
  chainId: number
  hash: Hex
  blockExplorerUrl: string | undefined
  routingProvider: string | undefined
}): string | null {
  const base = input.blockExplorerUrl?.replace(/\/+$/, '') ?? ''
  if (base.length > 0) return `${base}/tx/${input.hash}`
  if (input.routingProvider === 'local') return `/api/dev/chains/${input.chainId}/tx/${input.hash}`
  return null
}
