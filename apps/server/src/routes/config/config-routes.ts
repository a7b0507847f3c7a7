import { type PublicConfig, publicConfigResponseSchema } from '@quicklinks/core/api/config'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPaymasterSigner } from '../../services/smart-accounts/get-paymaster-signer.ts'
import { listSmartAccountChains } from '../../services/smart-accounts/list-smart-account-chains.ts'

// A restart is the only way the answer changes; a minute of caching keeps each page load to one call.
const cacheControl = 'public, max-age=60'

/** The server's public settings: GET /api/config. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  const hasPaymasterSigner = getPaymasterSigner(app.config) !== undefined
  app.get(
    '/config',
    {
      schema: {
        summary:
          'Public settings the web app reads once per page load: the routing provider, the WalletConnect project id and the smart-account chains (public)',
        tags: ['config'],
        response: { 200: publicConfigResponseSchema },
      },
    },
    // GET /api/config: the routing provider, WalletConnect's project id and the smart-account chains, so the web builds none in.
    async (_request, reply) => {
      reply.header('cache-control', cacheControl)
      const { sponsorPolicies } = app.config
      const chains = (await listSmartAccountChains(app.config)).map((chain) => ({
        chainId: chain.chainId,
        entryPoint: chain.entryPoint,
        accountFactory: chain.accountFactory,
        multiOwnerAccountFactory: chain.multiOwnerAccountFactory,
        simple7702Account: chain.simple7702Account,
        sponsored:
          hasPaymasterSigner &&
          chain.paymaster !== null &&
          sponsorPolicies.some(
            (policy) => policy.chainIds === undefined || policy.chainIds.includes(chain.chainId),
          ),
      }))
      const data: PublicConfig = {
        routingProvider: app.config.routingProvider,
        walletConnectProjectId: app.config.walletConnectProjectId ?? null,
        smartAccounts: { defaultPolicyId: app.config.sponsorDefaultPolicyId, chains },
        solana: !app.solana.isConfigured
          ? null
          : {
              rpcPath: '/api/solana',
              sponsorAddress: app.solana.sponsor?.address ?? null,
              defaultPolicyId: app.solana.sponsor ? (app.config.solanaSponsorDefaultPolicyId ?? null) : null,
            },
      }
      return { data }
    },
  )
}
