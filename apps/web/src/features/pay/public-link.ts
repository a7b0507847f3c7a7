import { type PublicLinkResponse, publicLinkResponseSchema } from '@quicklinks/core/api/pay'
import { payPageDataElementId } from '@quicklinks/core/api/pay-page-data'
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

/**
 * The link the server put in this page's HTML (`#pay-link-data`, the same answer as
 * GET /api/pay/links/{slug}) when it is the link of `slug`, else undefined: no block, another
 * link's (the payer has moved on inside the app), or text the schema refuses.
 */
export function readEmbeddedPublicLink(slug: string, doc: Document = document): PublicLink | undefined {
  const text = doc.getElementById(payPageDataElementId)?.textContent
  if (text === undefined || text === null || text === '') return undefined
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  const parsed = publicLinkResponseSchema.safeParse(json)
  if (!parsed.success || parsed.data.data.alias_slug.toLowerCase() !== slug.toLowerCase()) return undefined
  return parsed.data.data
}

// The embedded link is as fresh as the page: fetched again only after this long, like any other read.
const embeddedLinkFreshMs = 60_000

/**
 * The public link of `slug`: at once from the page's HTML when the server put it there (the pay
 * page then paints without waiting for the API), else from GET /api/pay/links/{slug}.
 */
export function usePublicLink(slug: string) {
  const embedded = readEmbeddedPublicLink(slug)
  return useQuery(
    embedded === undefined
      ? publicLinkQueryOptions(slug)
      : {
          ...publicLinkQueryOptions(slug),
          initialData: embedded,
          // When the page was loaded: a payer who comes back to the tab later gets a fresh read.
          initialDataUpdatedAt: performance.timeOrigin,
          staleTime: embeddedLinkFreshMs,
        },
  )
}
