import { devMailListResponseSchema, devSmsListResponseSchema } from '@quicklinks/core/api/dev'
import type { DevMail, DevSms } from '@quicklinks/core/dev-outbox'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * The dev server's outboxes (dev mode only): mail caught by its SMTP catcher (GET /api/dev/mail)
 * and text messages from its dev SMS provider (GET /api/dev/sms), newest first. Both answer 404
 * when dev mode is off.
 */

export const devOutboxKeys = {
  all: ['dev-outbox'] as const,
  mail: () => ['dev-outbox', 'mail'] as const,
  sms: () => ['dev-outbox', 'sms'] as const,
}

/** How often an open /dev/mail page looks for new messages. */
export const devOutboxPollMs = 2000

/**
 * GET /api/dev/mail. Rejects with the API client's AppError: NOT_FOUND when dev mode is off,
 * INTERNAL when the answer is not a list of mail.
 */
export async function listDevMail(client: ApiClient = api, signal?: AbortSignal): Promise<DevMail[]> {
  const body = await client.request('/api/dev/mail', devMailListResponseSchema, {
    fallbackMessage: 'Could not read the dev mail.',
    ...(signal === undefined ? {} : { signal }),
  })
  return body.data
}

/** GET /api/dev/sms; fails like `listDevMail`. */
export async function listDevSms(client: ApiClient = api, signal?: AbortSignal): Promise<DevSms[]> {
  const body = await client.request('/api/dev/sms', devSmsListResponseSchema, {
    fallbackMessage: 'Could not read the dev text messages.',
    ...(signal === undefined ? {} : { signal }),
  })
  return body.data
}

// Both poll while they work and stop once one failed (dev mode off), so a 404 is not asked again.
export function devMailQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: devOutboxKeys.mail(),
    queryFn: ({ signal }) => listDevMail(client, signal),
    refetchInterval: (query) => (query.state.error === null ? devOutboxPollMs : false),
    retry: false,
  })
}

export function devSmsQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: devOutboxKeys.sms(),
    queryFn: ({ signal }) => listDevSms(client, signal),
    refetchInterval: (query) => (query.state.error === null ? devOutboxPollMs : false),
    retry: false,
  })
}

export function useDevMail() {
  return useQuery(devMailQueryOptions())
}

export function useDevSms() {
  return useQuery(devSmsQueryOptions())
}
