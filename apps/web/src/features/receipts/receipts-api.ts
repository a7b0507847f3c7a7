import { rpcRelayResponseSchema } from '@quicklinks/core/api/json-rpc-relay'
import {
  receiptEmailResponseSchema,
  receiptResponseSchema,
  type SignedReceipt,
} from '@quicklinks/core/api/receipts'
import type { ReceiptChainReader } from '@quicklinks/core/verify-receipt-on-chain'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { createPublicClient, custom } from 'viem'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * A payment's receipt (GET /api/receipts/{intentId}, docs/api.md#receipts), the payer's copy by
 * e-mail, and the page's read-only way to a chain (POST /api/receipts/rpc/{chainId}: the page may
 * only connect to its own origin).
 */

export const receiptKeys = {
  all: ['receipt'] as const,
  detail: (intentId: string) => ['receipt', intentId] as const,
  check: (intentId: string, signature: string) => ['receipt', intentId, 'check', signature] as const,
}

/**
 * GET /api/receipts/{intentId}. Rejects with an AppError: NOT_FOUND (no such payment), CONFLICT
 * (not verified yet), SERVICE_UNAVAILABLE (no receipt key on the server).
 */
export async function getReceipt(
  intentId: string,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<SignedReceipt> {
  const body = await client.request(`/api/receipts/${encodeURIComponent(intentId)}`, receiptResponseSchema, {
    fallbackMessage: 'Failed to load the receipt',
    ...(signal === undefined ? {} : { signal }),
  })
  return body.data
}

export function receiptQueryOptions(intentId: string, client: ApiClient = api) {
  return queryOptions({
    queryKey: receiptKeys.detail(intentId),
    queryFn: ({ signal }) => getReceipt(intentId, client, signal),
    // A final payment's receipt never changes.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

export function useReceipt(intentId: string) {
  return useQuery(receiptQueryOptions(intentId))
}

/** POST /api/receipts/{intentId}/email. Rejects with an AppError (429 when a limit is reached). */
export async function sendReceiptEmail(
  intentId: string,
  email: string,
  client: ApiClient = api,
): Promise<void> {
  await client.request(`/api/receipts/${encodeURIComponent(intentId)}/email`, receiptEmailResponseSchema, {
    method: 'POST',
    body: { email },
    fallbackMessage: 'Could not send the receipt',
  })
}

/**
 * A viem reader of one chain through the server's receipt relay, which forwards only reads of a
 * transaction, its receipt and a balance to the node the server was configured with.
 */
export function createReceiptChainReader(chainId: number, client: ApiClient = api): ReceiptChainReader {
  let id = 0
  return createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        id += 1
        const answer = await client.request(`/api/receipts/rpc/${chainId}`, rpcRelayResponseSchema, {
          method: 'POST',
          body: { jsonrpc: '2.0', id, method, params: Array.isArray(params) ? params : [] },
          fallbackMessage: `Chain ${chainId} did not answer`,
        })
        if (answer.error) throw new Error(answer.error.message)
        return answer.result
      },
    }),
  })
}
