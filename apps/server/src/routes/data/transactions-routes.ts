import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { transactionListParamsSchema, transactionListResponseSchema } from '@quicklinks/core/api/transactions'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { listTransactionRecords } from '../../services/payments/tracking/list-transaction-records.ts'

/** The payer's payments under /api/data/transactions. */
export const transactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.routingProvider

  app.get(
    '/data/transactions/:address',
    {
      schema: {
        summary: 'The payments a wallet sent as transaction records, newest update first (public)',
        tags: ['data'],
        params: transactionListParamsSchema,
        response: { 200: transactionListResponseSchema, 422: errorResponseSchema },
      },
    },
    // GET /api/data/transactions/{address}: the wallet's transaction records, polled by the pay modal.
    async (request) => {
      // Explorer links are a nicety: a catalogue that cannot load leaves them to the dev explorer or null.
      const chains = await provider.chains().catch(() => [])
      const records = await listTransactionRecords(app.db, request.params.address, {
        explorerBaseUrls: new Map(chains.map((chain) => [chain.chainId, chain.blockExplorerUrl])),
        devExplorerOrigin: app.config.devMode ? app.config.publicOrigin : null,
        provider,
      })
      return { data: records }
    },
  )
}
