import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  rpcRelayParamsSchema,
  rpcRelayRequestSchema,
  rpcRelayResponseSchema,
} from '@quicklinks/core/api/json-rpc-relay'
import { routeRequestBodySchema } from '@quicklinks/core/api/route-request'
import {
  chainListResponseSchema,
  providerParamsSchema,
  routeResponseSchema,
  tokenListResponseSchema,
} from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getConfiguredRpcUrlOrThrow } from '../../services/chains/find-configured-rpc-url.ts'
import { relayJsonRpc } from '../../services/chains/relay-json-rpc.ts'
import { buildRoute } from '../../services/payments/route/build-route.ts'

/**
 * The routing provider: GET /api/{provider}/chains and /tokens, POST /api/{provider}/route, and
 * POST /api/{provider}/rpc/{chainId}, the signed-in user's JSON-RPC relay to a catalogue chain.
 */
export const routingRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.routingProvider

  const assertConfiguredProvider = (name: string): void => {
    if (name !== provider.name) {
      throw new AppError('NOT_FOUND', {
        message: `Routing provider ${name} requested; ${provider.name} is configured`,
        userMessage: `Unknown routing provider "${name}".`,
      })
    }
  }

  app.get(
    '/:provider/chains',
    {
      schema: {
        summary: 'The chains the routing provider serves (public); {provider} is the configured one',
        tags: ['routing'],
        params: providerParamsSchema,
        response: {
          200: chainListResponseSchema,
          404: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // GET /api/{provider}/chains: the provider's chains, or 404 for another provider's name.
    async (request) => {
      assertConfiguredProvider(request.params.provider)
      return { data: await provider.chains() }
    },
  )

  app.get(
    '/:provider/tokens',
    {
      schema: {
        summary: 'The tokens on every chain of the routing provider (public), native ones included',
        tags: ['routing'],
        params: providerParamsSchema,
        response: {
          200: tokenListResponseSchema,
          404: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // GET /api/{provider}/tokens: the provider's tokens, or 404 for another provider's name.
    async (request) => {
      assertConfiguredProvider(request.params.provider)
      return { data: await provider.tokens() }
    },
  )

  app.post(
    '/:provider/route',
    {
      schema: {
        summary: 'Quotes a payment and returns the transaction to send, stored as a route intent (public)',
        tags: ['routing'],
        params: providerParamsSchema,
        body: routeRequestBodySchema,
        response: {
          200: routeResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      // Each route costs RPC calls and a row: 60 a minute per IP is plenty for a pay modal.
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
    },
    // POST /api/{provider}/route: intentId, transaction request, estimate and spender; 404/422 when no route.
    async (request) => {
      assertConfiguredProvider(request.params.provider)
      const caller = request.user === null ? null : { address: request.user.address }
      return { data: await buildRoute(app.db, provider, request.body, caller, request.id) }
    },
  )

  app.post(
    '/:provider/rpc/:chainId',
    {
      schema: {
        summary:
          "Relays one JSON-RPC request to a catalogue chain for the signed-in user's embedded wallet (reads, and raw transactions it signed itself)",
        tags: ['routing'],
        params: rpcRelayParamsSchema,
        body: rpcRelayRequestSchema,
        response: {
          200: rpcRelayResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      // A swap takes a few dozen calls (gas, nonce, fees, receipt polls every second).
      config: { rateLimit: { max: 300, timeWindow: 60_000 } },
    },
    // POST /api/{provider}/rpc/{chainId}: the node's JSON-RPC answer; 401 signed out, 404 unknown chain.
    async (request) => {
      assertConfiguredProvider(request.params.provider)
      const user = request.user
      if (user === null) throw new AppError('UNAUTHORIZED', { message: 'RPC relay asked without a session' })
      const chain = (await provider.chains()).find((each) => each.chainId === request.params.chainId)
      if (chain === undefined) {
        throw new AppError('NOT_FOUND', {
          message: `RPC relay asked for chain ${request.params.chainId}, which the catalogue lacks`,
          userMessage: `Unknown chain ${request.params.chainId}.`,
        })
      }
      // The configured node only: the catalogue's own rpcUrl is a third party's (SSRF, and a node that lies).
      const rpcUrl = await getConfiguredRpcUrlOrThrow(app.config, chain.chainId)
      return relayJsonRpc({ rpcUrl, senderAddress: user.address, request: request.body })
    },
  )
}
