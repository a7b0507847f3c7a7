import { AppError } from '@quicklinks/core/app-error'
import type { DevnetChainDeployment } from '@quicklinks/devnet/devnet-deployment'
import { getAddress } from 'viem'

/**
 * The PayRouter address of a devnet chain. Throws 503 when the deployment predates PayRouter
 * (an old devnet data dir: restart the devnet).
 */
export function getPayRouterAddressOrThrow(chain: DevnetChainDeployment): `0x${string}` {
  const address = (chain.contracts as Record<string, unknown>).payRouter
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `No PayRouter in the devnet deployment of chain ${chain.chainId}`,
      userMessage: `PayRouter is not deployed on ${chain.name}; restart the devnet (npm start).`,
    })
  }
  return getAddress(address)
}
