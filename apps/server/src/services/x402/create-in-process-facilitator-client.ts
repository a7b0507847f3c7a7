import type { x402Facilitator } from '@x402/core/facilitator'
import type { FacilitatorClient } from '@x402/core/server'
import type {
  Network,
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from '@x402/core/types'

/**
 * `@x402/core`'s x402Facilitator throws for a payload it has no scheme for (another x402 version,
 * scheme or network); the specification answers those in the response instead, with these reasons.
 */
function describeUnsupported(error: unknown): { reason: string; message: string } | undefined {
  const message = error instanceof Error ? error.message : String(error)
  if (message.startsWith('No facilitator registered for x402 version'))
    return { reason: 'invalid_x402_version', message }
  if (message.startsWith('No facilitator registered for scheme'))
    return { reason: 'unsupported_scheme', message }
  return undefined
}

/**
 * Our facilitator as a `FacilitatorClient` (what `x402ResourceServer` takes), called in-process
 * without HTTP: the same answers POST /x402/facilitator/{verify,settle} give. A payload on a
 * version, scheme or network not supported is answered invalid (`invalid_x402_version`,
 * `unsupported_scheme`); other errors reject.
 */
export function createInProcessFacilitatorClient(facilitator: x402Facilitator): FacilitatorClient {
  return {
    async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
      try {
        return await facilitator.verify(payload, requirements)
      } catch (error) {
        const unsupported = describeUnsupported(error)
        if (!unsupported) throw error
        return { isValid: false, invalidReason: unsupported.reason, invalidMessage: unsupported.message }
      }
    },
    async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
      try {
        return await facilitator.settle(payload, requirements)
      } catch (error) {
        const unsupported = describeUnsupported(error)
        if (!unsupported) throw error
        return {
          success: false,
          errorReason: unsupported.reason,
          errorMessage: unsupported.message,
          transaction: '',
          network: requirements.network,
        }
      }
    },
    async getSupported(): Promise<SupportedResponse> {
      const supported = facilitator.getSupported()
      // Its kinds' networks are the CAIP-2 ids the schemes were registered with (`eip155:<id>`).
      return {
        ...supported,
        kinds: supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network })),
      }
    },
  }
}
