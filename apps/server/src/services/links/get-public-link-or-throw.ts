import { AppError } from '@quicklinks/core/app-error'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/create-database-client.ts'
import { type Link, links } from '../../db/schema.ts'

/**
 * The enabled link with this slug (ignoring case), for the public pay page. Throws AppError
 * NOT_FOUND ('This link is unavailable.') for an unknown or disabled slug alike.
 */
export async function getPublicLinkOrThrow(db: Database, slug: string): Promise<Link> {
  const [link] =
    slug.length > 64
      ? []
      : await db
          .select()
          .from(links)
          .where(and(sql`lower(${links.aliasSlug}) = lower(${slug})`, eq(links.enabled, true)))
          .limit(1)
  if (!link) {
    throw new AppError('NOT_FOUND', {
      message: `No enabled link with slug ${slug}`,
      userMessage: 'This link is unavailable.',
    })
  }
  return link
}
