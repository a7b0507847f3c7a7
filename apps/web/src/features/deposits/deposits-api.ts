import {
  type CreateDepositRequest,
  type DepositResponse,
  depositResponseSchema,
  type RefundAddressRequest,
} from '@quicklinks/core/api/deposits'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * The deposit calls the pay page makes (docs/api.md#deposits): make a deposit address for a link
 * (or one of its invoices) and read what became of the transfers into it. Each failure is an
 * AppError with the server's user message, else the fallback.
 */

export const depositKeys = {
  all: ['deposit'] as const,
  detail: (id: string) => ['deposit', id] as const,
}

/** POST /api/pay/links/{slug}/deposits. Rejects with the server's 422 naming the field, else 'Failed to make a deposit address'. */
export async function createDeposit(
  slug: string,
  input: CreateDepositRequest,
  client: ApiClient = api,
): Promise<DepositResponse> {
  const body = await client.request(
    `/api/pay/links/${encodeURIComponent(slug)}/deposits`,
    depositResponseSchema,
    {
      method: 'POST',
      body: input,
      fallbackMessage: 'Failed to make a deposit address',
    },
  )
  return body.data
}

/** GET /api/pay/deposits/{id}. */
export async function getDeposit(
  id: string,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<DepositResponse> {
  const body = await client.request(`/api/pay/deposits/${encodeURIComponent(id)}`, depositResponseSchema, {
    fallbackMessage: 'Failed to read the deposit',
    ...(signal === undefined ? {} : { signal }),
  })
  return body.data
}

/**
 * POST /api/pay/deposits/{id}/refund-address: the sender's signed message naming another refund
 * address. Rejects with the server's 403/409/422 message, else 'Failed to change the refund address'.
 */
export async function changeRefundAddress(
  id: string,
  input: RefundAddressRequest,
  client: ApiClient = api,
): Promise<DepositResponse> {
  const body = await client.request(
    `/api/pay/deposits/${encodeURIComponent(id)}/refund-address`,
    depositResponseSchema,
    { method: 'POST', body: input, fallbackMessage: 'Failed to change the refund address' },
  )
  return body.data
}

/** Re-read every 3 s while the deposit is open or a transfer into it is still moving. */
function getRefetchInterval(deposit: DepositResponse | undefined): number | false {
  if (!deposit) return false
  const isMoving = deposit.transfers.some(
    (transfer) => !['routed', 'refunded', 'failed', 'dropped'].includes(transfer.state),
  )
  return deposit.state === 'open' || isMoving ? 3_000 : false
}

/** The deposit, re-read every 3 s while it is open or a transfer into it is still moving. */
export function depositQueryOptions(id: string, initial: DepositResponse, client: ApiClient = api) {
  return queryOptions({
    queryKey: depositKeys.detail(id),
    queryFn: ({ signal }) => getDeposit(id, client, signal),
    initialData: initial,
    refetchInterval: (query) => getRefetchInterval(query.state.data),
  })
}

export function useDeposit(initial: DepositResponse) {
  return useQuery(depositQueryOptions(initial.id, initial))
}

/** A deposit by id (its status page), polled like useDeposit. */
export function useDepositById(id: string) {
  return useQuery({
    queryKey: depositKeys.detail(id),
    queryFn: ({ signal }) => getDeposit(id, api, signal),
    refetchInterval: (query) => getRefetchInterval(query.state.data),
  })
}
