import { and, eq } from 'drizzle-orm'
import type { Database } from '../../db/create-database-client.ts'
import { links } from '../../db/schema.ts'
import { buildLinkNotFoundError, isLinkId } from './get-owned-link-or-throw.ts'

/** Deletes the user's link. Throws AppError NOT_FOUND for an unknown id or another user's link. */
export async function deleteLink(db: Database, input: { userId: string; id: string }): Promise<void> {
  if (!isLinkId(input.id)) throw buildLinkNotFoundError(input.id)
  const deleted = await db
    .delete(links)
    .where(and(eq(links.id, input.id), eq(links.userId, input.userId)))
    .returning({ id: links.id })
  if (deleted.length === 0) throw buildLinkNotFoundError(input.id)
}
