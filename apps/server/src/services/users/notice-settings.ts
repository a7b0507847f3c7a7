import type { NoticeSettings, PaymentDigest } from '@quicklinks/core/api/notices'
import { AppError } from '@quicklinks/core/app-error'
import type { Database } from '@quicklinks/runtime/db/create-database-client'
import { eq } from 'drizzle-orm'
import { users } from '../../db/schema.ts'
import type { ReadCaches } from '../cache/read-caches.ts'
import { writeAndInvalidate } from '../cache/write-and-invalidate.ts'

/** The user's notice settings (docs/api.md#notices), read from the row, not a cached session. */
export async function getNoticeSettings(db: Database, userId: string): Promise<NoticeSettings> {
  const [row] = await db
    .select({ paymentDigest: users.paymentDigest })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  if (!row) throw new AppError('UNAUTHORIZED', { message: `User ${userId} no longer exists` })
  return { paymentDigest: row.paymentDigest }
}

/**
 * Sets the user's payment digest; the cached sessions holding the user row read it from the
 * commit on. Resolves the settings as stored.
 */
export async function setPaymentDigest(
  db: Database,
  input: { userId: string; paymentDigest: PaymentDigest },
  caches?: ReadCaches,
): Promise<NoticeSettings> {
  const [row] = await writeAndInvalidate(
    db,
    caches,
    (tx) =>
      tx
        .update(users)
        .set({ paymentDigest: input.paymentDigest, updatedAt: new Date() })
        .where(eq(users.id, input.userId))
        .returning({ paymentDigest: users.paymentDigest }),
    () => ({ users: [input.userId] }),
  )
  if (!row) throw new AppError('UNAUTHORIZED', { message: `User ${input.userId} no longer exists` })
  return { paymentDigest: row.paymentDigest }
}
