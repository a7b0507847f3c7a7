import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  x402FacilitatorPaths,
  x402FacilitatorRequestSchema,
  x402SettleResponseSchema,
  x402SupportedResponseSchema,
  x402VerifyResponseSchema,
} from '@quicklinks/core/api/x402'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { parseFacilitatorRequestOrThrow } from '../../services/x402/parse-facilitator-request.ts'

/** What a facilitator that only speaks x402 v2 answers a payload of another version. */
const unsupportedVersion = (version: number) => ({
  reason: 'invalid_x402_version',
  message: `This facilitator settles x402 version 2, not ${version}`,
})

/**
 * Our x402 facilitator's HTTP face (docs/decisions/0031), at the root beside /api: protocol URLs
 * that agents' servers call with the specification's shapes, no cookie and no CSRF token (app.ts
 * exempts `/x402/`). A well-formed request is answered 200 whatever the verdict (the body says);
 * a malformed one 400.
 */
export const x402FacilitatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    x402FacilitatorPaths.supported,
    {
      schema: {
        summary: 'x402 facilitator: the schemes and networks it settles, and its signer (public)',
        tags: ['x402'],
        response: { 200: x402SupportedResponseSchema, 503: errorResponseSchema },
      },
    },
    // GET /x402/facilitator/supported: `exact` on each chain with an EIP-3009 token, the relayer signs.
    async () => (await app.x402.facilitator()).getSupported(),
  )

  app.post(
    x402FacilitatorPaths.verify,
    {
      schema: {
        summary: 'x402 facilitator: whether a payment payload meets a requirement and would settle (public)',
        tags: ['x402'],
        body: x402FacilitatorRequestSchema,
        response: { 200: x402VerifyResponseSchema, 400: errorResponseSchema, 503: errorResponseSchema },
      },
      // Reads and a simulation per call: a resource server verifies each paid request once.
      config: { rateLimit: { max: 600, timeWindow: 60_000 } },
    },
    // POST /x402/facilitator/verify: the library's checks (signature, amount, recipient, time, balance).
    async (request) => {
      const parsed = parseFacilitatorRequestOrThrow(request.body)
      if ('unsupportedVersion' in parsed) {
        const { reason, message } = unsupportedVersion(parsed.unsupportedVersion)
        return { isValid: false, invalidReason: reason, invalidMessage: message }
      }
      return (await app.x402.facilitator()).verify(parsed.payload, parsed.requirements)
    },
  )

  app.post(
    x402FacilitatorPaths.settle,
    {
      schema: {
        summary: 'x402 facilitator: settles a payment payload on chain, the relayer paying the gas (public)',
        tags: ['x402'],
        body: x402FacilitatorRequestSchema,
        response: { 200: x402SettleResponseSchema, 400: errorResponseSchema, 503: errorResponseSchema },
      },
      // Each settlement is a transaction the relayer pays for; its EIP-3009 nonce makes it single-use.
      config: { rateLimit: { max: 300, timeWindow: 60_000 } },
    },
    // POST /x402/facilitator/settle: verifies again, then transferWithAuthorization through the relayer.
    async (request) => {
      const parsed = parseFacilitatorRequestOrThrow(request.body)
      if ('unsupportedVersion' in parsed) {
        const { reason, message } = unsupportedVersion(parsed.unsupportedVersion)
        const network = (request.body.paymentRequirements as { network?: unknown }).network
        return {
          success: false,
          errorReason: reason,
          errorMessage: message,
          transaction: '',
          network: typeof network === 'string' ? network : '',
        }
      }
      return (await app.x402.facilitator()).settle(parsed.payload, parsed.requirements)
    },
  )
}
