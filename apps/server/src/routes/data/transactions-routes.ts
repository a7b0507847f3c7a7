import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  listTransactionRecords,
  transactionRecordSchema,
} from '../../services/tracking/list-transaction-records.ts'
import { errorResponseSchema } from '../error-response-schema.ts'

/** The payer's payments under /api/data/transactions. */
export const transactionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.routingProvider

  app.get(
    '/data/transactions/:address',
    {
      schema: {
        summary: 'The payments a wallet sent, newest update first (public; SPEC transaction records)',
        tags: ['data'],
        params: z.object({ address: z.string().max(64).describe('The paying wallet') }),
        response: { 200: z.object({ data: z.array(transactionRecordSchema) }), 422: errorResponseSchema },
      },
    },
    // GET /api/data/transactions/{address}: the wallet's transaction records, polled by the pay modal.
    async (request) => {
      // Explorer links are a nicety: a catalogue that cannot load leaves them to the dev explorer or null.
      const chains = await provider.chains().catch(() => [])
      const records = await listTransactionRecords(app.db, request.params.address, {
        explorerBaseUrls: new Map(chains.map((chain) => [chain.chainId, chain.blockExplorerUrl])),
        devExplorerOrigin: app.config.devMode ? app.config.publicOrigin : null,
      })
      return { data: records }
    },
  )
}
