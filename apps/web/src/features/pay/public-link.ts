import { AppError } from '@quicklinks/core/app-error'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * The public read of a payment link by its slug (GET /api/pay/links/{slug}). A payer sees only
 * what is needed to pay; the owner's own fields stay on the owner's endpoints.
 */
export type PublicLink = {
  alias: string
  alias_slug: string
  receiver_address: string
  chain: string
  chain_id: number
  token_name: string
  token_address: string | null
  message: string | null
  link_type: string | null
}

export const publicLinkKeys = {
  all: ['public-link'] as const,
  detail: (slug: string) => ['public-link', slug] as const,
}

/**
 * GET /api/pay/links/{slug}. Rejects with an AppError: NOT_FOUND when no enabled link has this
 * slug (the page then says the link is unavailable), BAD_REQUEST when the answer is not a link.
 */
export async function getPublicLink(
  slug: string,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<PublicLink> {
  const body = await client.request<unknown>(`/api/pay/links/${encodeURIComponent(slug)}`, {
    fallbackMessage: 'Failed to get link',
    ...(signal === undefined ? {} : { signal }),
  })
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined
  const link = parsePublicLink(data)
  if (link === undefined)
    throw new AppError('BAD_REQUEST', { message: `Not a link: ${JSON.stringify(body)}` })
  // A disabled link is not payable; the server should not return it, but never offer it if it does.
  if ((data as { enabled?: unknown }).enabled === false) throw new AppError('NOT_FOUND')
  return link
}

export function publicLinkQueryOptions(slug: string, client: ApiClient = api) {
  return queryOptions({
    queryKey: publicLinkKeys.detail(slug),
    queryFn: ({ signal }) => getPublicLink(slug, client, signal),
  })
}

export function usePublicLink(slug: string) {
  return useQuery(publicLinkQueryOptions(slug))
}

/** Reads the fields a pay page needs; undefined when the value is not a link. */
export function parsePublicLink(value: unknown): PublicLink | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const record = value as Record<string, unknown>
  const text = (key: string): string | null => {
    const field = record[key]
    return typeof field === 'string' && field.length > 0 ? field : null
  }
  const alias = text('alias')
  const slug = text('alias_slug')
  const receiver = text('receiver_address')
  if (alias === null || slug === null || receiver === null) return undefined
  const chainId = Number(record.chain_id)
  return {
    alias,
    alias_slug: slug,
    receiver_address: receiver,
    chain: text('chain') ?? 'base',
    chain_id: Number.isFinite(chainId) && chainId > 0 ? chainId : 8453,
    token_name: text('token_name') ?? '',
    token_address: text('token_address'),
    message: text('message'),
    link_type: text('link_type'),
  }
}
