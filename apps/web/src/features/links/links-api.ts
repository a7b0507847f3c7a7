import {
  deleteLinkResponseSchema,
  linkListResponseSchema,
  linkResponseSchema,
} from '@quicklinks/core/api/link'
import { AppError } from '@quicklinks/core/app-error'
import * as z from 'zod/mini'
import { type ApiClient, api } from '../../lib/api-client'
import type { OfflineAnswer } from '../../lib/offline-queue'
import type { CreateLinkInput, Link, UpdateLinkInput } from './link'

/**
 * The owner's link calls (docs/api.md#links-list to #links-delete). Plain functions over the API
 * client, each answer parsed with its schema from @quicklinks/core/api/links; each failure is an
 * AppError whose user message is the server's, else the fallback for that call
 * (docs/product.md#errors-links).
 *
 * The writes (create, update and so enable and favorite, delete) are queued when the browser is
 * offline (docs/product.md#offline-queue): they then resolve with `{offline: true}` instead of the
 * server's answer, and the queue sends them when the browser is back online. Replaying one that
 * already reached the server is safe: a create carries its idempotency key, an update sets the
 * same fields again, and a delete answered 404 counts as done.
 */

/** What a link write resolves with when it was queued instead of sent. */
export type QueuedLinkWrite = OfflineAnswer

const offlineAnswerSchema = z.object({ offline: z.literal(true) })

/** True when a link write was queued offline rather than answered by the server. */
export function isQueuedLinkWrite(result: unknown): result is QueuedLinkWrite {
  return z.safeParse(offlineAnswerSchema, result).success
}

function unwrap<Data>(body: { data: Data } | QueuedLinkWrite): Data | QueuedLinkWrite {
  return 'offline' in body ? body : body.data
}

/** GET /api/links: the caller's links, newest first. Rejects with 'Failed to fetch links' by default. */
export async function listLinks(client: ApiClient = api, signal?: AbortSignal): Promise<Link[]> {
  const body = await client.request('/api/links', linkListResponseSchema, {
    fallbackMessage: 'Failed to fetch links',
    ...(signal === undefined ? {} : { signal }),
  })
  return body.data
}

/** GET /api/links/{id}. Rejects with NOT_FOUND for another user's link, 'Failed to get link' by default. */
export async function getLink(id: string, client: ApiClient = api): Promise<Link> {
  const body = await client.request(`/api/links/${encodeURIComponent(id)}`, linkResponseSchema, {
    fallbackMessage: 'Failed to get link',
  })
  return body.data
}

/**
 * POST /api/links (docs/api.md#links-create): alias and receiver_address are required after
 * trimming; chain and token_address are lowercased and chain_id is a number. The same
 * idempotency_key answers the same link. Rejects with the server's error (409 with a suggested
 * slug, 422 naming the field), else 'Create failed ({status})'.
 */
export async function createLink(
  input: CreateLinkInput,
  client: ApiClient = api,
): Promise<Link | QueuedLinkWrite> {
  const alias = input.alias.trim()
  const receiver = input.receiver_address.trim()
  if (alias.length === 0 || receiver.length === 0) {
    throw new AppError('VALIDATION_FAILED', { userMessage: 'Alias and receiver_address are required' })
  }
  const body = await client.request('/api/links', z.union([offlineAnswerSchema, linkResponseSchema]), {
    method: 'POST',
    queueWhenOffline: true,
    body: {
      ...input,
      alias,
      receiver_address: receiver,
      chain: input.chain.toLowerCase(),
      token_address: input.token_address.toLowerCase(),
      chain_id: Number(input.chain_id),
    },
    fallbackMessage: (status) => `Create failed (${status})`,
  })
  return unwrap(body)
}

/** PUT /api/links/{id}. Rejects with the server's error, else 'Update failed ({status})'. */
export async function updateLink(
  input: UpdateLinkInput,
  client: ApiClient = api,
): Promise<Link | QueuedLinkWrite> {
  if (input.id.length === 0)
    throw new AppError('VALIDATION_FAILED', { userMessage: 'Missing link id for update' })
  const path = `/api/links/${encodeURIComponent(input.id)}`
  const body = await client.request(path, z.union([offlineAnswerSchema, linkResponseSchema]), {
    method: 'PUT',
    queueWhenOffline: true,
    body: input,
    fallbackMessage: (status) => `Update failed (${status})`,
  })
  return unwrap(body)
}

/** DELETE /api/links/{id}. Rejects with the server's error, else 'Delete failed ({status})'. */
export async function deleteLink(
  id: string,
  client: ApiClient = api,
): Promise<{ id: string } | QueuedLinkWrite> {
  const path = `/api/links/${encodeURIComponent(id)}`
  const body = await client.request(path, z.union([offlineAnswerSchema, deleteLinkResponseSchema]), {
    method: 'DELETE',
    queueWhenOffline: true,
    fallbackMessage: (status) => `Delete failed (${status})`,
  })
  return unwrap(body)
}
