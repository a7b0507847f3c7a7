import { existsSync } from 'node:fs'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { ServerConfig } from '../../config/server-env.ts'
import { getChainRpcUrl } from './get-chain-rpc-url.ts'

export type ConfiguredRpcConfig = Pick<ServerConfig, 'rpcUrls' | 'devnetDeploymentFile'>

/**
 * The RPC URL this server was configured with for a chain: RPC_URL_<chainId>, else the devnet
 * deployment's URL when the devnet file exists and lists the chain; else undefined. Never a URL
 * from the routing provider's catalogue: Squid's `rpc` is a third party's node, which the server
 * must neither be made to call (SSRF) nor trust (a lying balance or receipt). A deployment file
 * that cannot be read counts as absent. Never rejects.
 */
export async function findConfiguredRpcUrl(
  config: ConfiguredRpcConfig,
  chainId: number,
): Promise<string | undefined> {
  const configured = config.rpcUrls[chainId]
  if (configured !== undefined) return configured
  if (!existsSync(config.devnetDeploymentFile)) return undefined
  const deployment = await getDevnetDeploymentOrThrow(config.devnetDeploymentFile).catch(() => undefined)
  return deployment?.chains.find((chain) => chain.chainId === chainId)?.rpcUrl
}

/**
 * `findConfiguredRpcUrl`, for a caller that cannot go on without the chain: rejects with AppError
 * SERVICE_UNAVAILABLE `Chain {id} is not configured on this server (set RPC_URL_{id}).` when the
 * chain has no configured RPC.
 */
export async function getConfiguredRpcUrlOrThrow(
  config: ConfiguredRpcConfig,
  chainId: number,
): Promise<string> {
  const url = await findConfiguredRpcUrl(config, chainId)
  return getChainRpcUrl(config, chainId, url === undefined ? [] : [{ chainId, rpcUrl: url }])
}
