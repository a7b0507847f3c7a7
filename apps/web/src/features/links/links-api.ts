import { AppError, parseErrorBody } from '@quicklinks/core/app-error'
import { type ApiClient, api } from '../../lib/api-client'
import { type CreateLinkInput, isLink, type Link, type UpdateLinkInput } from './link'

/**
 * The owner's link calls (SPEC §7). Plain functions over the API client; each failure is an
 * AppError whose user message is the server's, else SPEC §8's fallback for that call.
 */

function readData(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined
}

function readLinkOrThrow(body: unknown): Link {
  const data = readData(body)
  if (!isLink(data)) throw new AppError('BAD_REQUEST', { message: `Not a link: ${JSON.stringify(body)}` })
  return data
}

/** GET /api/links: the caller's links, newest first. Rejects with 'Failed to fetch links' by default. */
export async function listLinks(client: ApiClient = api, signal?: AbortSignal): Promise<Link[]> {
  const body = await client.request<unknown>('/api/links', {
    fallbackMessage: 'Failed to fetch links',
    ...(signal === undefined ? {} : { signal }),
  })
  const data = readData(body)
  if (!Array.isArray(data)) throw new AppError('BAD_REQUEST', { userMessage: 'Failed to fetch links' })
  return data.filter(isLink)
}

/** GET /api/links/{id}. Rejects with NOT_FOUND for another user's link, 'Failed to get link' by default. */
export async function getLink(id: string, client: ApiClient = api): Promise<Link> {
  const body = await client.request<unknown>(`/api/links/${encodeURIComponent(id)}`, {
    fallbackMessage: 'Failed to get link',
  })
  return readLinkOrThrow(body)
}

/**
 * POST /api/links. SPEC §5: alias and receiver_address are required after trimming; chain and
 * token_address are lowercased and chain_id is a number. The same idempotency_key answers the same
 * link. Rejects with the server's error (409 with a suggested slug, 422 naming the field), else
 * 'Create failed ({status})'.
 */
export async function createLink(input: CreateLinkInput, client: ApiClient = api): Promise<Link> {
  const alias = input.alias.trim()
  const receiver = input.receiver_address.trim()
  if (alias.length === 0 || receiver.length === 0) {
    throw new AppError('VALIDATION_FAILED', { userMessage: 'Alias and receiver_address are required' })
  }
  const response = await client.send('/api/links', {
    method: 'POST',
    queueWhenOffline: false,
    body: {
      ...input,
      alias,
      receiver_address: receiver,
      chain: input.chain.toLowerCase(),
      token_address: input.token_address.toLowerCase(),
      chain_id: Number(input.chain_id),
    },
  })
  return readLinkResponse(response, 'Create failed')
}

/** PUT /api/links/{id}. Rejects with the server's error, else 'Update failed ({status})'. */
export async function updateLink(input: UpdateLinkInput, client: ApiClient = api): Promise<Link> {
  if (input.id.length === 0)
    throw new AppError('VALIDATION_FAILED', { userMessage: 'Missing link id for update' })
  const response = await client.send(`/api/links/${encodeURIComponent(input.id)}`, {
    method: 'PUT',
    queueWhenOffline: false,
    body: input,
  })
  return readLinkResponse(response, 'Update failed')
}

/** DELETE /api/links/{id}. Rejects with the server's error, else 'Delete failed ({status})'. */
export async function deleteLink(id: string, client: ApiClient = api): Promise<{ id: string }> {
  const response = await client.send(`/api/links/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    queueWhenOffline: false,
  })
  const body = await readJson(response)
  if (!response.ok) throw errorFrom(body, response.status, 'Delete failed')
  return { id }
}

async function readLinkResponse(response: Response, fallbackPrefix: string): Promise<Link> {
  const body = await readJson(response)
  if (!response.ok) throw errorFrom(body, response.status, fallbackPrefix)
  return readLinkOrThrow(body)
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text.length === 0) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

function errorFrom(body: unknown, status: number, fallbackPrefix: string): AppError {
  return parseErrorBody(body, status, `${fallbackPrefix} (${status})`)
}
