import { type PublicLinkResponse, publicLinkResponseSchema } from '@quicklinks/core/api/pay'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * The public read of a payment link by its slug (GET /api/pay/links/{slug}, docs/api.md#pay-link).
 * A payer sees only what is needed to pay; the owner's own fields stay on the owner's endpoints.
 */
export type PublicLink = PublicLinkResponse

export const publicLinkKeys = {
  all: ['public-link'] as const,
  detail: (slug: string) => ['public-link', slug] as const,
}

/**
 * GET /api/pay/links/{slug}. Rejects with an AppError: NOT_FOUND when no enabled link has this
 * slug (the page then says the link is unavailable), INTERNAL when the answer is not a public link.
 */
export async function getPublicLink(
  slug: string,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<PublicLink> {
  const body = await client.request(`/api/pay/links/${encodeURIComponent(slug)}`, publicLinkResponseSchema, {
    fallbackMessage: 'Failed to get link',
    ...(signal === undefined ? {} : { signal }),
  })
  return body.data
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
