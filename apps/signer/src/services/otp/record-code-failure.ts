import { AppError } from '@quicklinks/core/app-error'
import { and, count, eq, gt } from 'drizzle-orm'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerCodeFailures, signerContactLocks } from '../../db/signer-schema.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { describeWait } from './describe-wait.ts'

/** The failure budget: this many wrong codes for one contact within {@link codeFailureWindowMs}… */
export const maxCodeFailuresPerWindow = 10
export const codeFailureWindowMs = 24 * 60 * 60_000
/** …lock the contact for an hour. */
export const contactLockMs = 60 * 60_000

/**
 * The refusal of any code check or send for a locked contact: 429 RATE_LIMITED saying when to try
 * again, with `details.retryAfterSeconds` and `details.lockedUntil` (ISO).
 */
export function createContactLockedError(lockedUntil: Date, nowMs: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((lockedUntil.getTime() - nowMs) / 1000))
  return new AppError('RATE_LIMITED', {
    message: 'Contact locked after too many wrong codes',
    userMessage: `Too many wrong codes were entered for this address, so it is locked for now. Try again in ${describeWait(retryAfterSeconds)}.`,
    details: { retryAfterSeconds, lockedUntil: lockedUntil.toISOString() },
  })
}

/** When the contact's lock ends, if it is locked at `nowMs`. Rejects on a database error. */
export async function findContactLock(
  db: SignerDatabase,
  contact: Contact,
  nowMs: number,
): Promise<Date | undefined> {
  const [lock] = await db
    .select({ lockedUntil: signerContactLocks.lockedUntil })
    .from(signerContactLocks)
    .where(
      and(
        eq(signerContactLocks.channel, contact.channel),
        eq(signerContactLocks.contact, contact.address),
        gt(signerContactLocks.lockedUntil, new Date(nowMs)),
      ),
    )
  return lock?.lockedUntil
}

/**
 * Records one wrong code (or link secret) for a contact and, when that spends the budget (10
 * wrong within 24 hours, counted since the contact's last lock began), locks the contact for an
 * hour. Serialised per contact (an advisory lock), so exactly one failure starts a given lock and
 * `isLockStarted` is true for that one only: its caller sends the notice.
 *
 * Returns `lockedUntil` when the contact is locked after this failure (by it or by a concurrent
 * one), else undefined. Rejects on a database error.
 */
export async function recordCodeFailure(
  db: SignerDatabase,
  input: { contact: Contact; nowMs: number },
): Promise<{ lockedUntil: Date | undefined; isLockStarted: boolean }> {
  const { contact } = input
  const now = new Date(input.nowMs)
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-code-failures:${contact.channel}:${contact.address}`)
    await tx
      .insert(signerCodeFailures)
      .values({ channel: contact.channel, contact: contact.address, createdAt: now })
    const [lock] = await tx
      .select()
      .from(signerContactLocks)
      .where(
        and(eq(signerContactLocks.channel, contact.channel), eq(signerContactLocks.contact, contact.address)),
      )
    if (lock !== undefined && lock.lockedUntil > now)
      return { lockedUntil: lock.lockedUntil, isLockStarted: false }

    // A new budget starts with each lock: the failures that caused it are not counted again.
    const windowStartMs = Math.max(input.nowMs - codeFailureWindowMs, lock?.lockedAt.getTime() ?? 0)
    const [counted] = await tx
      .select({ failures: count() })
      .from(signerCodeFailures)
      .where(
        and(
          eq(signerCodeFailures.channel, contact.channel),
          eq(signerCodeFailures.contact, contact.address),
          gt(signerCodeFailures.createdAt, new Date(windowStartMs)),
        ),
      )
    if ((counted?.failures ?? 0) < maxCodeFailuresPerWindow)
      return { lockedUntil: undefined, isLockStarted: false }

    const lockedUntil = new Date(input.nowMs + contactLockMs)
    await tx
      .insert(signerContactLocks)
      .values({ channel: contact.channel, contact: contact.address, lockedAt: now, lockedUntil })
      .onConflictDoUpdate({
        target: [signerContactLocks.channel, signerContactLocks.contact],
        set: { lockedAt: now, lockedUntil },
      })
    return { lockedUntil, isLockStarted: true }
  })
}
