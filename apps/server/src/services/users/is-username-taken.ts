import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { sql } from 'drizzle-orm'
import { users } from '../../db/schema.ts'

/** Whether any user holds `username`, ignoring case. Rejects when the database fails. */
export async function isUsernameTaken(db: Database, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1)
  return rows.length > 0
}
