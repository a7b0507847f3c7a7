import { walletBalancesParamsSchema, walletBalancesResponseSchema } from '@quicklinks/core/api/balances'
import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { AppError } from '@quicklinks/core/app-error'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getAddress } from 'viem'
import { readWalletBalances } from '../../services/balances/read-wallet-balances.ts'
import { resolveBalanceChain } from '../../services/balances/resolve-balance-chain.ts'

/** A wallet's balances: GET /api/data/wallets/{chain}/{address}/balances. */
export const balancesRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.routingProvider

  app.get(
    '/data/wallets/:chain/:address/balances',
    {
      schema: {
        summary:
          "A wallet's native and token balances on one chain (public), highest first; only the native entry (0) when the chain cannot be read",
        tags: ['data'],
        params: walletBalancesParamsSchema,
        response: {
          200: walletBalancesResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // GET /api/data/wallets/{chain}/{address}/balances: one Multicall3 eth_call on that chain.
    async (request) => {
      const chains = await provider.chains()
      const chain = resolveBalanceChain(chains, request.params.chain)
      if (!chain) {
        throw new AppError('NOT_FOUND', {
          message: `Balances asked for unknown chain ${request.params.chain}`,
          userMessage: `Unknown chain "${request.params.chain}".`,
        })
      }
      const tokens = await provider.tokens({ withoutPrices: true })
      const data = await readWalletBalances({
        config: app.config,
        chain,
        tokens,
        owner: getAddress(request.params.address),
      })
      return { data }
    },
  )
}
