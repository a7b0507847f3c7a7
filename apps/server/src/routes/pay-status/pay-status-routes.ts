import { existsSync } from 'node:fs'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { payStatusParamsSchema, payStatusResponseSchema } from '@quicklinks/core/api/pay-status'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getChainRpcUrl } from '../../services/chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../services/chains/get-local-public-client.ts'
import { readPayStatusOrThrow } from '../../services/payments/status/read-pay-status.ts'

/** The payer's status page's read under /api/pay/status (docs/api.md#pay-status). */
export const payStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/pay/status/:intentId',
    {
      schema: {
        summary:
          'One payment’s live state for its payer (public; the 32-byte random intent id is the capability): chains, tokens, amounts, hashes, the link’s name, times, and the refund call of an unfilled cross-chain deposit',
        tags: ['pay'],
        params: payStatusParamsSchema,
        response: { 200: payStatusResponseSchema, 404: errorResponseSchema, 422: errorResponseSchema },
      },
      // The status page polls every few seconds; each look may read two chains.
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
    },
    // GET /api/pay/status/{intentId}: 200 with the payment's status; 404 unknown or not yet reported.
    async (request) => {
      const [chains, devnetChains] = await Promise.all([
        // Explorer links are a nicety: a catalogue that cannot load leaves them to the dev explorer or null.
        app.routingProvider.chains().catch(() => []),
        existsSync(app.config.devnetDeploymentFile)
          ? getDevnetDeploymentOrThrow(app.config.devnetDeploymentFile).then(
              (deployment) => deployment.chains,
              () => [],
            )
          : [],
      ])
      const status = await readPayStatusOrThrow(
        {
          db: app.db,
          explorerBaseUrls: new Map(chains.map((chain) => [chain.chainId, chain.blockExplorerUrl])),
          devExplorerOrigin: app.config.devMode ? app.config.publicOrigin : null,
          getClient: (chainId) => getLocalPublicClient(getChainRpcUrl(app.config, chainId, devnetChains)),
          logger: request.log,
        },
        request.params.intentId,
      )
      return { data: status }
    },
  )
}
