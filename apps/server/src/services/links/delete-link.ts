import { and, eq } from 'drizzle-orm'
import type { Database } from '../../db/create-database-client.ts'
import { links } from '../../db/schema.ts'
import { buildLinkNotFoundError, isLinkId } from './get-owned-link-or-throw.ts'
import { notifyLinkChanged } from './link-change-feed.ts'
import type { PublicLinkCache } from './public-link-cache.ts'

/**
 * Deletes the user's link; its slug leaves the public link cache before this returns, and every
 * other instance's through the commit's NOTIFY. Throws AppError NOT_FOUND for an unknown id or
 * another user's link.
 */
export async function deleteLink(
  db: Database,
  input: { userId: string; id: string },
  publicLinks: Pick<PublicLinkCache, 'invalidate'>,
): Promise<void> {
  if (!isLinkId(input.id)) throw buildLinkNotFoundError(input.id)
  const slug = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(links)
      .where(and(eq(links.id, input.id), eq(links.userId, input.userId)))
      .returning({ aliasSlug: links.aliasSlug })
    if (!deleted) throw buildLinkNotFoundError(input.id)
    await notifyLinkChanged(tx, [deleted.aliasSlug])
    return deleted.aliasSlug
  })
  publicLinks.invalidate([slug])
}
