import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq } from 'drizzle-orm'
import { type Link, links } from '../../db/schema.ts'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The 404 of a link that does not exist or belongs to someone else (the two look the same). */
export function buildLinkNotFoundError(id: string): AppError {
  return new AppError('NOT_FOUND', {
    message: `Link ${id} not found for this user`,
    userMessage: 'Link not found.',
  })
}

/** Whether `id` can be a link id at all (a malformed one is simply not found). */
export function isLinkId(id: string): boolean {
  return uuidPattern.test(id)
}

/**
 * The user's link with this id. Throws AppError NOT_FOUND ('Link not found.') when there is
 * none, when the id is malformed, and when the link belongs to another user.
 */
export async function getOwnedLinkOrThrow(
  db: Database,
  input: { userId: string; id: string },
): Promise<Link> {
  if (!isLinkId(input.id)) throw buildLinkNotFoundError(input.id)
  const [link] = await db
    .select()
    .from(links)
    .where(and(eq(links.id, input.id), eq(links.userId, input.userId)))
    .limit(1)
  if (!link) throw buildLinkNotFoundError(input.id)
  return link
}
