import {
  apiKeyListResponseSchema,
  apiKeyResponseSchema,
  type CreateApiKeyRequest,
  createdApiKeyResponseSchema,
} from '@quicklinks/core/api/api-keys'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/** Query keys for API keys, from one factory. */
export const apiKeyKeys = { all: ['api-keys'] as const }

/** GET /api/api-keys: the signed-in user's keys, newest first. */
export function apiKeysQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: apiKeyKeys.all,
    queryFn: async ({ signal }) =>
      (
        await client.request('/api/api-keys', apiKeyListResponseSchema, {
          signal,
          fallbackMessage: 'Could not load your API keys. Try again.',
        })
      ).data,
  })
}

/** POST /api/api-keys: answers the new key (its secret is in this answer only), then lists again. */
export function useCreateApiKey(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateApiKeyRequest) =>
      (
        await client.request('/api/api-keys', createdApiKeyResponseSchema, {
          method: 'POST',
          body: input,
          fallbackMessage: 'Could not create the API key. Try again.',
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  })
}

/** DELETE /api/api-keys/{id}: the key stops working at once, then the list is read again. */
export function useRevokeApiKey(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await client.request(`/api/api-keys/${encodeURIComponent(id)}`, apiKeyResponseSchema, {
          method: 'DELETE',
          fallbackMessage: 'Could not revoke the API key. Try again.',
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  })
}
