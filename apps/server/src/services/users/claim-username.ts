import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { and, eq, ne, sql } from 'drizzle-orm'
import { type User, users } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'
import { getUniqueViolation } from '../postgres/get-unique-violation.ts'

function buildTakenError(username: string, cause?: unknown): AppError {
  return new AppError('CONFLICT', {
    message: `Username ${username} is held by another user`,
    userMessage: 'That username is taken.',
    field: 'username',
    ...(cause === undefined ? {} : { cause }),
  })
}

/**
 * Gives `username` (already validated) to the user, replacing any earlier one; the same name in
 * another case is the user's to take. Throws AppError CONFLICT (409, 'That username is taken.')
 * when another user holds it, also when two claims race (the unique index decides).
 */
export async function claimUsername(
  db: Database,
  input: { userId: string; username: string },
  caches?: ReadCaches,
): Promise<User> {
  const holders = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${input.username})`, ne(users.id, input.userId)))
    .limit(1)
  if (holders.length > 0) throw buildTakenError(input.username)
  try {
    // Cached sessions hold the user row: they read the new name from its commit on, everywhere.
    const [user] = await writeAndInvalidate(
      db,
      caches,
      (tx) =>
        tx
          .update(users)
          .set({ username: input.username, updatedAt: new Date() })
          .where(eq(users.id, input.userId))
          .returning(),
      () => ({ users: [input.userId] }),
    )
    if (!user) throw new AppError('UNAUTHORIZED', { message: `User ${input.userId} no longer exists` })
    return user
  } catch (error) {
    if (getUniqueViolation(error)) throw buildTakenError(input.username, error)
    throw error
  }
}
