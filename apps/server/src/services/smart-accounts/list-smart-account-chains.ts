import { existsSync } from 'node:fs'
import { entryPointV08Address } from '@quicklinks/core/api/smart-accounts'
import type { DevnetDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import { type Address, getAddress } from 'viem'
import type { ServerConfig } from '../../config/server-env.ts'

/** What the server knows of one chain with smart accounts: where to send, and which contracts. */
export type SmartAccountChain = {
  chainId: number
  rpcUrl: string
  /** The bundler's JSON-RPC (server side only: it may be on loopback or carry an API key). */
  bundlerUrl: string
  entryPoint: Address
  accountFactory: Address
  multiOwnerAccountFactory: Address
  simple7702Account: Address
  /** SponsorPaymaster, or null when the chain has none (nothing is sponsored there). */
  paymaster: Address | null
  /** The devnet deployment's PayRouter on this chain (a policy's `devnetContracts`), else null. */
  payRouter: Address | null
}

export type SmartAccountChainsConfig = Pick<
  ServerConfig,
  'bundlerUrls' | 'rpcUrls' | 'smartAccountContracts' | 'devnetDeploymentFile'
>

/**
 * The chains where smart accounts work: each with a bundler (BUNDLER_URL_<chainId>, else the devnet
 * deployment's `bundlerUrl`), an RPC URL and the account contracts (the per-chain variables over the
 * devnet deployment's). A chain missing any of them is left out. The devnet file is read when it
 * exists; one that cannot be read counts as absent (its chains are then left out). Never throws.
 */
export async function listSmartAccountChains(config: SmartAccountChainsConfig): Promise<SmartAccountChain[]> {
  let deployment: DevnetDeployment | undefined
  if (existsSync(config.devnetDeploymentFile)) {
    deployment = await getDevnetDeploymentOrThrow(config.devnetDeploymentFile).catch(() => undefined)
  }
  const chainIds = new Set<number>(Object.keys(config.bundlerUrls).map(Number))
  for (const chain of deployment?.chains ?? [])
    if (readBundlerUrl(chain) !== undefined) chainIds.add(chain.chainId)

  const chains: SmartAccountChain[] = []
  for (const chainId of [...chainIds].sort((a, b) => a - b)) {
    const devnetChain = deployment?.chains.find((chain) => chain.chainId === chainId)
    const overrides = config.smartAccountContracts[chainId] ?? {}
    const devnetContracts: Partial<Record<string, string>> = devnetChain?.contracts ?? {}
    const bundlerUrl = config.bundlerUrls[chainId] ?? (devnetChain && readBundlerUrl(devnetChain))
    const rpcUrl = config.rpcUrls[chainId] ?? devnetChain?.rpcUrl
    const accountFactory = overrides.accountFactory ?? devnetContracts.accountFactory
    const multiOwnerAccountFactory =
      overrides.multiOwnerAccountFactory ?? devnetContracts.multiOwnerAccountFactory
    const simple7702Account = overrides.simple7702Account ?? devnetContracts.simple7702Account
    const paymaster = overrides.paymaster ?? devnetContracts.sponsorPaymaster
    if (!bundlerUrl || !rpcUrl || !accountFactory || !multiOwnerAccountFactory || !simple7702Account) continue
    chains.push({
      chainId,
      rpcUrl,
      bundlerUrl,
      entryPoint: entryPointV08Address,
      accountFactory: getAddress(accountFactory),
      multiOwnerAccountFactory: getAddress(multiOwnerAccountFactory),
      simple7702Account: getAddress(simple7702Account),
      paymaster: paymaster ? getAddress(paymaster) : null,
      payRouter: devnetChain ? getAddress(devnetChain.contracts.payRouter) : null,
    })
  }
  return chains
}

/** The devnet chain's bundler URL (H1's `bundlerUrl` field), read so it may be absent. */
function readBundlerUrl(chain: object): string | undefined {
  return 'bundlerUrl' in chain && typeof chain.bundlerUrl === 'string' && chain.bundlerUrl !== ''
    ? chain.bundlerUrl
    : undefined
}
