import { toX402Network } from '@quicklinks/core/api/x402'
import { type FacilitatorClient, x402ResourceServer } from '@x402/core/server'
import { ExactEvmScheme } from '@x402/evm/exact/server'
import type { X402Chain } from '../read-x402-setup.ts'

/**
 * `@x402/core`'s resource server (the layer below x402HTTPResourceServer, whose static route table
 * cannot hold per-link offers: docs/decisions/0031) with `@x402/evm`'s exact server scheme on each
 * chain, verifying and settling through `facilitator`. Pure: builds objects, no I/O (it is not
 * initialized: with one facilitator it is asked directly).
 */
export function createX402ResourceServer(
  facilitator: FacilitatorClient,
  chains: readonly Pick<X402Chain, 'chainId'>[],
): x402ResourceServer {
  const server = new x402ResourceServer(facilitator)
  for (const chain of chains) server.register(toX402Network(chain.chainId), new ExactEvmScheme())
  return server
}
