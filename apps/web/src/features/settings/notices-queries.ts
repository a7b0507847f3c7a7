import { type NoticeSettings, noticeSettingsResponseSchema } from '@quicklinks/core/api/notices'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/** Query keys for the notice settings, from one factory. */
export const noticeKeys = { all: ['notice-settings'] as const }

/** GET /api/users/notices: the signed-in user's e-mail notice settings (docs/api.md#notices). */
export function noticeSettingsQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: noticeKeys.all,
    queryFn: async ({ signal }) =>
      (
        await client.request('/api/users/notices', noticeSettingsResponseSchema, {
          signal,
          fallbackMessage: 'Could not load your e-mail notices. Try again.',
        })
      ).data,
  })
}

/** PUT /api/users/notices: answers the settings as stored, which replace the cached ones. */
export function useUpdateNoticeSettings(client: ApiClient = api) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: NoticeSettings) =>
      (
        await client.request('/api/users/notices', noticeSettingsResponseSchema, {
          method: 'PUT',
          body: input,
          fallbackMessage: 'Could not save your e-mail notices. Try again.',
        })
      ).data,
    onSuccess: (settings) => queryClient.setQueryData(noticeKeys.all, settings),
  })
}
