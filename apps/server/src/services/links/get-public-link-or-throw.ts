import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, sql } from 'drizzle-orm'
import { type Link, links } from '../../db/schema.ts'
import type { PublicLinkCache } from '../cache/public-link-cache.ts'

/** Slugs are at most 64 characters; a longer one cannot match and is neither queried nor cached. */
const maxSlugLength = 64

/** The enabled link with this slug (ignoring case) straight from the database, or undefined. */
export async function findPublicLink(db: Database, slug: string): Promise<Link | undefined> {
  const [link] = await db
    .select()
    .from(links)
    .where(and(sql`lower(${links.aliasSlug}) = lower(${slug})`, eq(links.enabled, true)))
    .limit(1)
  return link
}

/**
 * The enabled link with this slug (ignoring case), for the public pay page, read through the
 * public link cache (a write to the link invalidates it before the write returns). Throws
 * AppError NOT_FOUND ('This link is unavailable.') for an unknown or disabled slug alike;
 * rejects when the database fails.
 */
export async function getPublicLinkOrThrow(
  db: Database,
  cache: PublicLinkCache,
  slug: string,
): Promise<Link> {
  const link = slug.length > maxSlugLength ? undefined : await cache.get(slug, () => findPublicLink(db, slug))
  if (!link) throw buildUnavailableError(slug)
  return link
}

/** The answer to an unknown or disabled slug alike: AppError NOT_FOUND 'This link is unavailable.' */
export function buildUnavailableError(slug: string): AppError {
  return new AppError('NOT_FOUND', {
    message: `No enabled link with slug ${slug}`,
    userMessage: 'This link is unavailable.',
  })
}
