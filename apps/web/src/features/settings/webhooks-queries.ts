import {
  type createWebhookRequestSchema,
  type WebhookDelivery,
  webhookDeliveryListResponseSchema,
  webhookDeliveryResponseSchema,
  webhookListResponseSchema,
  webhookResponseSchema,
  webhookWithSecretResponseSchema,
} from '@quicklinks/core/api/webhooks'
import {
  type InfiniteData,
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query'
import type * as z from 'zod/mini'
import { type ApiClient, api } from '../../lib/api-client'

/** POST /api/webhooks's body, as the form's parse of core's schema gives it. */
export type CreateWebhookInput = z.infer<typeof createWebhookRequestSchema>

/** Query keys for webhook endpoints and their delivery logs, from one factory. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => ['webhooks', 'list'] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
}

/** How often an open log is read again while one of its deliveries is still pending. */
export const pendingDeliveryPollMs = 2_000

const endpointPath = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`

/** GET /api/webhooks: the signed-in user's endpoints, newest first (never their secrets). */
export function webhooksQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: webhookKeys.list(),
    queryFn: async ({ signal }) =>
      (
        await client.request('/api/webhooks', webhookListResponseSchema, {
          signal,
          fallbackMessage: 'Could not load your webhook endpoints. Try again.',
        })
      ).data,
  })
}

/** True while any delivery on the loaded pages still waits for a try or its answer. */
export function hasPendingDelivery(pages: InfiniteData<{ data: WebhookDelivery[] }> | undefined): boolean {
  return pages?.pages.some((page) => page.data.some((delivery) => delivery.state === 'pending')) ?? false
}

/**
 * GET /api/webhooks/{id}/deliveries: the endpoint's log, newest first, page after page by cursor
 * ('Show older'); read again every 2 s while a delivery is pending, so a try's outcome shows by
 * itself. `isEndpointEnabled` false stops that: a paused endpoint's deliveries wait for its resume.
 */
export function webhookDeliveriesQueryOptions(
  id: string,
  isEndpointEnabled: boolean,
  client: ApiClient = api,
) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: async ({ pageParam, signal }) =>
      client.request(
        `${endpointPath(id)}/deliveries${pageParam === undefined ? '' : `?cursor=${encodeURIComponent(pageParam)}`}`,
        webhookDeliveryListResponseSchema,
        { signal, fallbackMessage: 'Could not load the delivery log. Try again.' },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: (query) =>
      isEndpointEnabled && query.state.error === null && hasPendingDelivery(query.state.data)
        ? pendingDeliveryPollMs
        : false,
  })
}

/** POST /api/webhooks: answers the new endpoint with its secret (in this answer only), then lists again. */
export function useCreateWebhook(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateWebhookInput) =>
      (
        await client.request('/api/webhooks', webhookWithSecretResponseSchema, {
          method: 'POST',
          body: input,
          fallbackMessage: 'Could not add the endpoint. Try again.',
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  })
}

/** PUT /api/webhooks/{id} with `enabled`: pauses or resumes an endpoint (resuming clears a disable). */
export function useSetWebhookEnabled(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, enabled }: { id: string; enabled: boolean }) =>
      (
        await client.request(endpointPath(id), webhookResponseSchema, {
          method: 'PUT',
          body: { enabled },
          fallbackMessage: enabled
            ? 'Could not resume the endpoint. Try again.'
            : 'Could not pause the endpoint. Try again.',
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  })
}

/** DELETE /api/webhooks/{id}: the endpoint and its log go; nothing more is sent to it. */
export function useDeleteWebhook(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await client.request(endpointPath(id), webhookResponseSchema, {
          method: 'DELETE',
          fallbackMessage: 'Could not delete the endpoint. Try again.',
        })
      ).data,
    onSuccess: (_deleted, id) => {
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) })
      return queryClient.invalidateQueries({ queryKey: webhookKeys.list() })
    },
  })
}

/** POST /api/webhooks/{id}/rotate-secret: answers the new secret (once); the old one signs for 24 h more. */
export function useRotateWebhookSecret(client: ApiClient = api) {
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await client.request(`${endpointPath(id)}/rotate-secret`, webhookWithSecretResponseSchema, {
          method: 'POST',
          fallbackMessage: 'Could not rotate the secret. Try again.',
        })
      ).data,
  })
}

/** POST /api/webhooks/{id}/test: queues a `webhook.test` delivery, then reads the log again. */
export function useSendTestWebhook(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await client.request(`${endpointPath(id)}/test`, webhookDeliveryResponseSchema, {
          method: 'POST',
          fallbackMessage: 'Could not send a test event. Try again.',
        })
      ).data,
    onSuccess: (_delivery, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  })
}

/** POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver: another try now, same webhook-id. */
export function useRedeliverWebhook(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      (
        await client.request(
          `${endpointPath(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
          webhookDeliveryResponseSchema,
          { method: 'POST', fallbackMessage: 'Could not redeliver. Try again.' },
        )
      ).data,
    onSuccess: (_delivery, { endpointId }) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) }),
  })
}
