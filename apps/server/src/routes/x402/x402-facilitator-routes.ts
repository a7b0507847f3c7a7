import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { x402FacilitatorPaths, x402SupportedResponseSchema } from '@quicklinks/core/api/x402'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'

/**
 * Our x402 facilitator's HTTP face (docs/decisions/0031), at the root beside /api: protocol URLs
 * that agents' servers call with the specification's shapes, no cookie and no CSRF token.
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
}
