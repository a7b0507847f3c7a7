import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { rpcRelayRequestSchema, rpcRelayResponseSchema } from '@quicklinks/core/api/json-rpc-relay'
import { smartAccountChainParamsSchema, smartAccountRefusalSchema } from '@quicklinks/core/api/smart-accounts'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getAddress } from 'viem'
import { getLocalPublicClient } from '../../services/chains/get-local-public-client.ts'
import { getPaymasterSigner } from '../../services/smart-accounts/get-paymaster-signer.ts'
import { JsonRpcError } from '../../services/smart-accounts/json-rpc-error.ts'
import {
  listSmartAccountChains,
  type SmartAccountChain,
} from '../../services/smart-accounts/list-smart-account-chains.ts'
import { relayBundlerRequest } from '../../services/smart-accounts/relay-bundler-request.ts'
import { sponsorUserOperation } from '../../services/smart-accounts/sponsor-user-operation.ts'

// One user operation with its init code, call data and an EIP-7702 authorization fits in a few KB.
const bodyLimit = 64 * 1024

/** Both routes: one JSON-RPC request in, a JSON-RPC answer or refusal out, `rateLimitMax` a minute. */
function jsonRpcRouteOptions(input: { summary: string; rateLimitMax: number }) {
  return {
    bodyLimit,
    schema: {
      summary: input.summary,
      tags: ['smart-accounts'],
      params: smartAccountChainParamsSchema,
      body: rpcRelayRequestSchema,
      response: {
        200: rpcRelayResponseSchema,
        401: errorResponseSchema,
        403: smartAccountRefusalSchema,
        404: errorResponseSchema,
        422: smartAccountRefusalSchema,
        503: errorResponseSchema,
      },
    },
    config: { rateLimit: { max: input.rateLimitMax, timeWindow: 60_000 } },
  }
}

/**
 * The signed-in user's smart-account services (docs/api.md#bundler, docs/api.md#paymaster):
 * POST /api/bundler/{chainId}, a JSON-RPC relay to the chain's ERC-4337 bundler, and
 * POST /api/paymaster/{chainId}, the ERC-7677 sponsor service. Registered in the signed-in scope
 * (401 without a session); CSRF applies as to every write.
 */
export const smartAccountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const signer = getPaymasterSigner(app.config)

  const getChainOrThrow = async (chainId: number): Promise<SmartAccountChain> => {
    const chain = (await listSmartAccountChains(app.config)).find((each) => each.chainId === chainId)
    if (chain === undefined) {
      throw new AppError('NOT_FOUND', {
        message: `Smart accounts asked for chain ${chainId}, which has no bundler configured`,
        userMessage: `Smart accounts are not available on chain ${chainId}.`,
      })
    }
    return chain
  }

  /** Sends a JsonRpcError as the JSON-RPC answer to request `id`; anything else goes to the error handler. */
  const replyJsonRpcError = (reply: FastifyReply, id: number | string, error: unknown) => {
    if (!(error instanceof JsonRpcError)) throw error
    return reply.code(error.httpStatus).send({ jsonrpc: '2.0' as const, id, error: error.toJson() })
  }

  app.post(
    '/bundler/:chainId',
    jsonRpcRouteOptions({
      summary:
        "Relays one JSON-RPC request to the chain's ERC-4337 bundler for the signed-in user's own accounts",
      // Like the RPC relay: estimate, send, then receipt polls every second or so.
      rateLimitMax: 300,
    }),
    // POST /api/bundler/{chainId}: the bundler's JSON-RPC answer; 403 for a sender that is not the user's.
    async (request, reply) => {
      const chain = await getChainOrThrow(request.params.chainId)
      try {
        return await relayBundlerRequest({
          chain,
          client: getLocalPublicClient(chain.rpcUrl),
          userAddress: getAddress(request.signedInUser.address),
          request: request.body,
        })
      } catch (error) {
        return replyJsonRpcError(reply, request.body.id, error)
      }
    },
  )

  app.post(
    '/paymaster/:chainId',
    jsonRpcRouteOptions({
      summary:
        "The sponsor service (ERC-7677 pm_getPaymasterStubData, pm_getPaymasterData): pays the gas of the signed-in user's operations within a policy",
      // Two calls per operation; a user sends a few operations a minute at most.
      rateLimitMax: 60,
    }),
    // POST /api/paymaster/{chainId}: paymaster fields for the operation, or a JSON-RPC refusal with data.reason.
    async (request, reply) => {
      const chain = await getChainOrThrow(request.params.chainId)
      const catalogueTokens = await app.routingProvider.tokens({ withoutPrices: true }).catch(() => [])
      try {
        const result = await sponsorUserOperation({
          db: app.db,
          chain,
          client: getLocalPublicClient(chain.rpcUrl),
          user: { id: request.signedInUser.id, address: getAddress(request.signedInUser.address) },
          policies: app.config.sponsorPolicies,
          catalogueTokens,
          signer,
          method: request.body.method,
          params: request.body.params ?? [],
        })
        return { jsonrpc: '2.0' as const, id: request.body.id, result }
      } catch (error) {
        return replyJsonRpcError(reply, request.body.id, error)
      }
    },
  )
}
