import type { FacilitatorClient } from '@x402/core/server'
import type { SupportedResponse } from '@x402/core/types'
import { createX402Facilitator } from '../create-x402-facilitator.ts'
import type { X402Setup } from '../read-x402-setup.ts'

/**
 * The facilitator the resource verifies and settles through: our own, in process (no HTTP).
 * Verifying reads the chain; settling goes through the relayer's writer (docs/decisions/0031).
 */
export function getX402FacilitatorClient(setup: X402Setup): FacilitatorClient {
  const facilitator = createX402Facilitator(setup)
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // Its networks are the CAIP-2 ids it was registered with: typed as plain strings by the facilitator.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  }
}
