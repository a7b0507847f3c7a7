import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { desc, eq } from 'drizzle-orm'
import { type Link, links } from '../../db/schema.ts'

/** The user's links, newest first. Rejects when the database fails. */
export async function listLinks(db: Database, userId: string): Promise<Link[]> {
  return db
    .select()
    .from(links)
    .where(eq(links.userId, userId))
    .orderBy(desc(links.createdAt), desc(links.id))
}
