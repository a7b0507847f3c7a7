import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq } from 'drizzle-orm'
import { links } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'
import { writeWebhookEvent } from '../webhooks/webhook-outbox.ts'
import { buildLinkNotFoundError, isLinkId } from './get-owned-link-or-throw.ts'
import { toLinkResponse } from './to-link-response.ts'

/**
 * Deletes the user's link; its slug and the owner's list leave the read caches before this
 * returns, and every other instance's through the commit's NOTIFY. Throws AppError NOT_FOUND for
 * an unknown id or another user's link.
 */
export async function deleteLink(
  db: Database,
  input: { userId: string; id: string },
  caches: ReadCaches,
): Promise<void> {
  if (!isLinkId(input.id)) throw buildLinkNotFoundError(input.id)
  await writeAndInvalidate(
    db,
    caches,
    async (tx) => {
      const [deleted] = await tx
        .delete(links)
        .where(and(eq(links.id, input.id), eq(links.userId, input.userId)))
        .returning()
      if (!deleted) throw buildLinkNotFoundError(input.id)
      await writeWebhookEvent(tx, {
        userId: input.userId,
        type: 'link.deleted',
        data: toLinkResponse(deleted),
        now: new Date(),
      })
      return deleted
    },
    (deleted) => ({ publicLinks: [deleted.aliasSlug], linkLists: [input.userId] }),
  )
}
