import { AppError } from '@quicklinks/core/app-error'
import type { ServerConfig } from '../../config/server-env.ts'

/**
 * The JSON-RPC URL the server uses for a chain: RPC_URL_<chainId> when set (production, or a test's
 * recording proxy), else the devnet deployment's URL when the chain is on the devnet. Throws AppError
 * SERVICE_UNAVAILABLE naming the variable to set when neither exists.
 */
export function getChainRpcUrl(
  config: Pick<ServerConfig, 'rpcUrls'>,
  chainId: number,
  devnetChains: readonly { chainId: number; rpcUrl: string }[] = [],
): string {
  const url = config.rpcUrls[chainId] ?? devnetChains.find((chain) => chain.chainId === chainId)?.rpcUrl
  if (!url) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `No RPC URL for chain ${chainId}`,
      userMessage: `Chain ${chainId} is not configured on this server (set RPC_URL_${chainId}).`,
    })
  }
  return url
}
