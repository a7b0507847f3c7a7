import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { rpcRelayResponseSchema } from '@quicklinks/core/api/json-rpc-relay'
import {
  solanaDevnetOnlyMethods,
  solanaFeePayerMethod,
  solanaFeePayerMethodAliases,
  solanaRelayedMethods,
  solanaRpcRequestSchema,
} from '@quicklinks/core/api/solana'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { forwardJsonRpc } from '../../services/chains/forward-json-rpc.ts'
import { JsonRpcError, jsonRpcErrorCodes } from '../../services/smart-accounts/json-rpc-error.ts'
import { sponsorSolanaTransaction } from '../../services/solana/sponsor-solana-transaction.ts'

// One request carries at most a 1232-byte transaction (1644 characters of base64).
const bodyLimit = 16 * 1024
const relayTimeoutMs = 15_000

const feePayerMethods = new Set<string>([solanaFeePayerMethod, ...solanaFeePayerMethodAliases])
const relayedMethods = new Set<string>(solanaRelayedMethods)
const devnetOnlyMethods = new Set<string>(solanaDevnetOnlyMethods)

/**
 * POST /api/solana (docs/api.md#solana): the signed-in user's Solana JSON-RPC endpoint. The
 * fee-payer method is answered here (the sponsor signs within a policy); the read and send methods
 * go to the in-process LiteSVM in development or to SOLANA_RPC_URL; requestAirdrop exists only on
 * the LiteSVM. Registered in the signed-in scope (401 without a session); CSRF applies as to every
 * write.
 */
export const solanaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/solana',
    {
      bodyLimit,
      schema: {
        summary:
          "The signed-in user's Solana JSON-RPC: fee sponsorship by policy (quicklinks_requestFeePayer) and the methods a wallet reads and sends with",
        tags: ['solana'],
        body: solanaRpcRequestSchema,
        response: { 200: rpcRelayResponseSchema, 401: errorResponseSchema, 503: errorResponseSchema },
      },
      // Like the RPC relay: a few reads, a send, then status polls every second or so.
      config: { rateLimit: { max: 300, timeWindow: 60_000 } },
    },
    // POST /api/solana: the method's JSON-RPC answer; a sponsor refusal is a JSON-RPC error with data.reason.
    async (request, reply) => {
      const { devnet, rpcUrl, sponsor, isConfigured } = app.solana
      if (!isConfigured) {
        throw new AppError('SERVICE_UNAVAILABLE', {
          message: 'POST /api/solana: neither SOLANA_RPC_URL nor the development LiteSVM is set up',
          userMessage: 'Solana is not configured on this server.',
        })
      }
      const { id, method } = request.body
      const params = request.body.params ?? []
      try {
        if (feePayerMethods.has(method)) {
          if (sponsor === undefined) {
            throw new AppError('SERVICE_UNAVAILABLE', {
              message: 'POST /api/solana: no SOLANA_SPONSOR_KEY, so no fee is sponsored',
              userMessage: 'Solana fee sponsorship is not configured on this server.',
            })
          }
          const result = await sponsorSolanaTransaction({
            db: app.db,
            user: request.signedInUser,
            policies: app.config.solanaSponsorPolicies ?? [],
            sponsor,
            params,
          })
          return { jsonrpc: '2.0' as const, id, result }
        }
        const isKnown = relayedMethods.has(method) || (devnet !== undefined && devnetOnlyMethods.has(method))
        if (!isKnown) {
          throw new JsonRpcError({
            code: jsonRpcErrorCodes.methodNotFound,
            message: `Method not found: ${method}`,
          })
        }
        if (!Array.isArray(params)) {
          throw new JsonRpcError({
            code: jsonRpcErrorCodes.invalidParams,
            message: `${method} takes a list of params`,
          })
        }
        if (devnet !== undefined)
          return { jsonrpc: '2.0' as const, id, result: devnet.handle(method, params) }
        return await forwardJsonRpc({
          // Configured without a LiteSVM: the node of SOLANA_RPC_URL.
          url: rpcUrl as string,
          request: { jsonrpc: '2.0', id, method, params },
          timeoutMs: relayTimeoutMs,
          upstream: 'Solana relay: the node',
          unavailableMessage: 'The Solana network is not reachable right now. Try again in a moment.',
        })
      } catch (error) {
        if (!(error instanceof JsonRpcError)) throw error
        // Solana clients read JSON-RPC errors from 200 answers, as a node sends them.
        return reply.code(200).send({ jsonrpc: '2.0' as const, id, error: error.toJson() })
      }
    },
  )
}
