import { errorResponseSchema } from '@quicklinks/core/api/error-response'
import {
  createInvoiceRequestSchema,
  invoiceIdParamsSchema,
  invoiceListQuerySchema,
  invoiceListResponseSchema,
  invoiceResponseSchema,
} from '@quicklinks/core/api/invoices'
import { linkIdParamsSchema } from '@quicklinks/core/api/link'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createInvoice } from '../../services/invoices/create-invoice.ts'
import { getOwnedInvoiceOrThrow, listInvoices } from '../../services/invoices/read-invoices.ts'
import { toInvoiceResponse } from '../../services/invoices/to-invoice-response.ts'

/**
 * The owner's invoices (docs/api.md#invoices-create to #invoices-get): create one on a link, list
 * and read them. Registered in the signed-in scope, whose preHandler answers 401 when signed out;
 * CSRF and the global rate limit apply as to every write (link creation has no tighter limit).
 */
export const invoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicOrigin = app.config.publicOrigin

  app.post(
    '/links/:id/invoices',
    {
      config: { apiKeyScopes: ['invoices:write'] },
      schema: {
        summary: "Creates an invoice on one of the signed-in user's links; 404 for another user's link",
        tags: ['invoices'],
        params: linkIdParamsSchema,
        body: createInvoiceRequestSchema,
        response: {
          201: invoiceResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
    },
    // POST /api/links/{id}/invoices: an invoice in the link's token, its amount checked against the token's decimals.
    async (request, reply) => {
      const row = await createInvoice(app.db, app.routingProvider, {
        userId: request.signedInUser.id,
        linkId: request.params.id,
        request: request.body,
      })
      reply.status(201)
      return { data: toInvoiceResponse(row, publicOrigin) }
    },
  )

  app.get(
    '/invoices',
    {
      config: { apiKeyScopes: ['payments:read', 'invoices:write'] },
      schema: {
        summary: "The signed-in user's invoices, newest first, optionally of one link or state",
        tags: ['invoices'],
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListResponseSchema, 401: errorResponseSchema, 422: errorResponseSchema },
      },
    },
    // GET /api/invoices: a page of the caller's invoices and the cursor of the next.
    async (request) => {
      const { rows, nextCursor } = await listInvoices(app.db, {
        userId: request.signedInUser.id,
        ...request.query,
      })
      return { data: rows.map((row) => toInvoiceResponse(row, publicOrigin)), nextCursor }
    },
  )

  app.get(
    '/invoices/:id',
    {
      config: { apiKeyScopes: ['payments:read', 'invoices:write'] },
      schema: {
        summary: "One of the signed-in user's invoices; 404 for another user's",
        tags: ['invoices'],
        params: invoiceIdParamsSchema,
        response: { 200: invoiceResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    // GET /api/invoices/{id}: the caller's invoice, or 404 'Invoice not found.'
    async (request) => {
      const row = await getOwnedInvoiceOrThrow(app.db, {
        userId: request.signedInUser.id,
        id: request.params.id,
      })
      return { data: toInvoiceResponse(row, publicOrigin) }
    },
  )
}
