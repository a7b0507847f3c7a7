import { AppError } from '@quicklinks/core/app-error'
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
 * BAD_REQUEST when the answer is not a list.
 */
export async function listDevMail(client: ApiClient = api, signal?: AbortSignal): Promise<DevMail[]> {
  const body = await client.request<unknown>('/api/dev/mail', {
    fallbackMessage: 'Could not read the dev mail.',
    ...(signal === undefined ? {} : { signal }),
  })
  return readList(body).filter(isDevMail)
}

/** GET /api/dev/sms; fails like `listDevMail`. */
export async function listDevSms(client: ApiClient = api, signal?: AbortSignal): Promise<DevSms[]> {
  const body = await client.request<unknown>('/api/dev/sms', {
    fallbackMessage: 'Could not read the dev text messages.',
    ...(signal === undefined ? {} : { signal }),
  })
  return readList(body).filter(isDevSms)
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

function readList(body: unknown): unknown[] {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined
  if (!Array.isArray(data))
    throw new AppError('BAD_REQUEST', { message: `Not a list: ${JSON.stringify(body)}` })
  return data
}

// Checked by hand rather than with core's zod schemas, so the web bundle does not carry zod for a
// dev-only page.
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function isDevMail(value: unknown): value is DevMail {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.to === 'string' &&
    typeof value.subject === 'string' &&
    typeof value.text === 'string' &&
    (typeof value.html === 'string' || value.html === null) &&
    typeof value.date === 'string'
  )
}

function isDevSms(value: unknown): value is DevSms {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.to === 'string' &&
    typeof value.body === 'string' &&
    typeof value.date === 'string'
  )
}
