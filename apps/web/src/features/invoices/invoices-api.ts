import {
  type CreateInvoiceRequest,
  type Invoice,
  invoiceResponseSchema,
  type PublicInvoice,
  publicInvoiceResponseSchema,
} from '@quicklinks/core/api/invoices'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * The invoice calls the web makes (docs/api.md#invoice-object, #invoices-create): a payer's public read and an owner's
 * create. Each failure is an AppError with the server's user message, else the fallback.
 */

export const publicInvoiceKeys = {
  all: ['public-invoice'] as const,
  detail: (id: string) => ['public-invoice', id] as const,
}

/**
 * GET /api/pay/invoices/{id}: what a payer sees of an invoice. Rejects with NOT_FOUND for an unknown
 * id (the page then says the invoice does not exist), else 'Failed to get invoice'.
 */
export async function getPublicInvoice(
  id: string,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<PublicInvoice> {
  const body = await client.request(
    `/api/pay/invoices/${encodeURIComponent(id)}`,
    publicInvoiceResponseSchema,
    { fallbackMessage: 'Failed to get invoice', ...(signal === undefined ? {} : { signal }) },
  )
  return body.data
}

/** The invoice, re-read every 15 s while open so a payment elsewhere shows (the state moves on the server). */
export function publicInvoiceQueryOptions(id: string, client: ApiClient = api) {
  return queryOptions({
    queryKey: publicInvoiceKeys.detail(id),
    queryFn: ({ signal }) => getPublicInvoice(id, client, signal),
    refetchInterval: (query) => {
      const state = query.state.data?.state
      return state === 'open' || state === 'processing' ? 15_000 : false
    },
  })
}

export function usePublicInvoice(id: string) {
  return useQuery(publicInvoiceQueryOptions(id))
}

/**
 * POST /api/links/{id}/invoices (docs/api.md#invoices-create), the owner's, with the CSRF header the
 * API client adds to every write. Rejects with the server's 422 naming the field, else
 * 'Failed to create invoice'.
 */
export async function createInvoice(
  linkId: string,
  input: CreateInvoiceRequest,
  client: ApiClient = api,
): Promise<Invoice> {
  const body = await client.request(
    `/api/links/${encodeURIComponent(linkId)}/invoices`,
    invoiceResponseSchema,
    {
      method: 'POST',
      body: input,
      fallbackMessage: 'Failed to create invoice',
    },
  )
  return body.data
}
