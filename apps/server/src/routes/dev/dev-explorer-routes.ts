import { devTransactionParamsSchema, devTransactionResponseSchema } from '@quicklinks/core/api/dev'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { AppError } from '@quicklinks/core/app-error'
import { getDevnetDeploymentOrThrow } from '@quicklinks/runtime/devnet/get-devnet-deployment-or-throw'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getChainRpcUrl } from '../../services/chains/get-chain-rpc-url.ts'
import { getLocalPublicClient } from '../../services/chains/get-local-public-client.ts'

/** Turns bigints into decimal strings so a viem object can go out as JSON. */
function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, each) => (typeof each === 'bigint' ? each.toString() : each)),
  )
}

/** The devnet's stand-in for a block explorer (dev mode only): transaction URLs of the records point here. */
export const devExplorerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/chains/:chainId/tx/:hash',
    {
      schema: {
        summary: 'A devnet transaction and its receipt as JSON (dev mode only)',
        tags: ['dev'],
        params: devTransactionParamsSchema,
        response: {
          200: devTransactionResponseSchema,
          404: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // GET /api/dev/chains/{chainId}/tx/{hash}: the transaction and its receipt (null while pending), 404 unknown.
    async (request) => {
      const deployment = await getDevnetDeploymentOrThrow(app.config.devnetDeploymentFile)
      const client = getLocalPublicClient(
        getChainRpcUrl(app.config, request.params.chainId, deployment.chains),
      )
      const hash = request.params.hash as `0x${string}`
      const transaction = await client.getTransaction({ hash }).catch(() => undefined)
      if (!transaction) throw new AppError('NOT_FOUND', { userMessage: 'No such transaction on this chain.' })
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null)
      return {
        data: { transaction: toJson(transaction), receipt: receipt === null ? null : toJson(receipt) },
      }
    },
  )
}
