import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  receiptDomain,
  receiptPrimaryType,
  receiptTypes,
  wellKnownReceiptsSchema,
} from '@quicklinks/core/api/receipts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getReceiptSignerOrThrow } from './get-receipt-signer-or-throw.ts'

/** GET /.well-known/quick-links-receipts.json (docs/api.md#well-known-receipts): who signs receipts here. */
export const wellKnownReceiptsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/.well-known/quick-links-receipts.json',
    {
      schema: {
        summary: "This instance's receipt signer and the receipts' EIP-712 domain and types (public)",
        tags: ['receipts'],
        response: { 200: wellKnownReceiptsSchema, 503: errorResponseSchema },
      },
    },
    // GET /.well-known/quick-links-receipts.json: {signer, keyId, domain, types, primaryType}; 503 without a key.
    async (_request, reply) => {
      const signer = getReceiptSignerOrThrow(app.receiptSigner)
      void reply.header('cache-control', 'public, max-age=300')
      return {
        signer: signer.account.address,
        keyId: signer.keyId,
        domain: { ...receiptDomain },
        types: { Receipt: receiptTypes.Receipt.map((field) => ({ ...field })) },
        primaryType: receiptPrimaryType,
      }
    },
  )
}
