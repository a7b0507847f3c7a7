import type { ServerConfig } from '../../config/server-env.ts'
import { findConfiguredRpcUrl } from '../chains/find-configured-rpc-url.ts'
import { getLocalPublicClient } from '../chains/get-local-public-client.ts'
import { type SiweSignatureVerifier, verifyEoaSignature } from './verify-eoa-signature.ts'

/**
 * The app's SIWE signature check: an EOA's signature is recovered offline; anything else is asked
 * of the message's chain (its Chain ID line) through viem's `verifyMessage`, which checks a
 * deployed smart account's ERC-1271 `isValidSignature` and an undeployed one's ERC-6492 wrapper
 * (simulating the factory call first) in one eth_call. The chain's RPC is RPC_URL_<chainId>, else
 * the devnet deployment's; a chain without one accepts EOA signatures only. Resolves false (never
 * rejects) for a signature that does not verify or an RPC that fails.
 */
export function createSiweSignatureVerifier(
  config: Pick<ServerConfig, 'rpcUrls' | 'devnetDeploymentFile'>,
): SiweSignatureVerifier {
  return async (input) => {
    if (await verifyEoaSignature(input)) return true
    const rpcUrl = await findConfiguredRpcUrl(config, input.chainId)
    if (rpcUrl === undefined) return false
    try {
      return await getLocalPublicClient(rpcUrl).verifyMessage({
        address: input.address,
        message: input.message,
        signature: input.signature,
      })
    } catch {
      return false
    }
  }
}
