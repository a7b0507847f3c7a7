import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { devnetDeploymentSchema } from '../../services/devnet/devnet-deployment-schema.ts'
import { getDevnetDeploymentOrThrow } from '../../services/devnet/get-devnet-deployment-or-throw.ts'
import { errorResponseSchema } from '../error-response-schema.ts'

/** Development-only routes under /api/dev; `buildApp` registers them only when DEV_MODE is on. */
export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/devnet',
    {
      schema: {
        summary: 'The local devnet: chains, RPC URLs, token and contract addresses (dev mode only)',
        tags: ['dev'],
        response: { 200: devnetDeploymentSchema, 503: errorResponseSchema },
      },
    },
    // GET /api/dev/devnet: the devnet deployment file as JSON, 503 until the devnet has deployed.
    async () => getDevnetDeploymentOrThrow(app.config.devnetDeploymentFile),
  )
}
