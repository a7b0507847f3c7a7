import { type PaymentListResponse, paymentListResponseSchema } from '@quicklinks/core/api/payments'
import { type ApiClient, api } from '../../lib/api-client'

/** The filters the Payments tab offers (docs/api.md#payments-list); empty ones are left out. */
export type PaymentFilters = {
  linkId?: string | undefined
  state?: string | undefined
  /** YYYY-MM-DD, from the start of that day (UTC). */
  from?: string | undefined
  /** YYYY-MM-DD, to the end of that day (UTC). */
  to?: string | undefined
}

/** The filters as a query string (`?linkId=…&state=…`), '' when there are none. */
export function toPaymentQuery(filters: PaymentFilters, cursor?: string): string {
  const params = new URLSearchParams()
  for (const key of ['linkId', 'state', 'from', 'to'] as const) {
    const value = filters[key]
    if (value !== undefined && value !== '') params.set(key, value)
  }
  if (cursor !== undefined) params.set('cursor', cursor)
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * GET /api/payments: one page of the signed-in payee's payments (after `cursor`) and the totals of
 * all that match. Rejects with the server's error, else 'Failed to load payments'.
 */
export async function listPayments(
  filters: PaymentFilters,
  cursor: string | undefined,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<PaymentListResponse> {
  return client.request(`/api/payments${toPaymentQuery(filters, cursor)}`, paymentListResponseSchema, {
    fallbackMessage: 'Failed to load payments',
    ...(signal === undefined ? {} : { signal }),
  })
}

/** Where the CSV of the same filters downloads from (docs/api.md#payments-export). */
export function buildPaymentsExportUrl(filters: PaymentFilters): string {
  return `/api/payments/export.csv${toPaymentQuery(filters)}`
}
