import {
  finalPayStatusStates,
  type PayStatus,
  payStatusResponseSchema,
} from '@quicklinks/core/api/pay-status'
import { useQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/** How often the status page asks again while the payment is not final. */
export const payStatusPollMs = 3000

/** GET /api/pay/status/{intentId} (docs/api.md#pay-status): the payment as its status page shows it. */
export async function getPayStatus(intentId: string, client: ApiClient = api): Promise<PayStatus> {
  const body = await client.request(
    `/api/pay/status/${encodeURIComponent(intentId)}`,
    payStatusResponseSchema,
    {
      fallbackMessage: 'Failed to load the payment status',
    },
  )
  return body.data
}

/** True once nothing more will happen to the payment: the page stops polling. */
export function isFinalPayStatus(status: PayStatus | undefined): boolean {
  return status !== undefined && finalPayStatusStates.includes(status.state)
}

/**
 * The status page's live read: polled every 3 s until the state is final (delivered, failed,
 * refunded); a failed read is not retried by itself (the page offers Try again).
 */
export function usePayStatus(intentId: string) {
  return useQuery({
    queryKey: ['pay-status', intentId.toLowerCase()],
    queryFn: () => getPayStatus(intentId),
    refetchInterval: (query) =>
      isFinalPayStatus(query.state.data) || query.state.error !== null ? false : payStatusPollMs,
    retry: false,
    staleTime: 0,
  })
}
