import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'
import { listPayments, type PaymentFilters } from './payments-api'

/** Query keys for payments, from one factory. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: (filters: PaymentFilters) => ['payments', 'list', filters] as const,
}

/** The payee's payments under `filters`, page after page by cursor ('Load more'). */
export function paymentsQueryOptions(filters: PaymentFilters, client: ApiClient = api) {
  return infiniteQueryOptions({
    queryKey: paymentKeys.list(filters),
    queryFn: ({ pageParam, signal }) => listPayments(filters, pageParam, client, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })
}

/** The payee's payments under `filters`; `fetchNextPage` loads the next page. */
export function usePayments(filters: PaymentFilters) {
  return useInfiniteQuery(paymentsQueryOptions(filters))
}
