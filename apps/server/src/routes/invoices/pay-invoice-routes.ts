import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import { invoiceIdParamsSchema, publicInvoiceResponseSchema } from '@quicklinks/core/api/invoices'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPublicInvoiceOrThrow } from '../../services/invoices/read-invoices.ts'
import { toPublicInvoiceResponse } from '../../services/invoices/to-invoice-response.ts'

/** The payer's read of an invoice (docs/api.md#pay-invoice): public, its unguessable id is the key. */
export const payInvoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/pay/invoices/:id',
    {
      schema: {
        summary:
          'An invoice as its payer sees it (public; no reference); 404 when unknown or its link is off',
        tags: ['pay'],
        params: invoiceIdParamsSchema,
        response: { 200: publicInvoiceResponseSchema, 404: errorResponseSchema },
      },
    },
    // GET /api/pay/invoices/{id}: what is due, what was paid and where it goes, or 404 'This invoice is unavailable.'
    async (request) => {
      const row = await getPublicInvoiceOrThrow(app.db, request.params.id)
      return { data: toPublicInvoiceResponse(row, app.config.publicOrigin) }
    },
  )
}
