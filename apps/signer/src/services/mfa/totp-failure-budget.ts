import { AppError } from '@quicklinks/core/app-error'
import { and, asc, count, eq, gt } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { signerTotpFailures } from '../../db/signer-schema.ts'
import { describeWait } from '../otp/describe-wait.ts'

/** A sign-in waiting for its second factor ends at its third wrong code. */
export const maxTotpFailuresPerChallenge = 3
/** Every third wrong code of a user locks the second-factor step… */
export const totpFailuresPerLock = 3
/** …for 15 minutes, then 30, then 60 (doubling with each lock of the day). */
export const firstTotpLockMs = 15 * 60_000
/** At most this many wrong codes per user in any 24 hours, whatever the locks did. */
export const maxTotpFailuresPerDay = 10
export const totpFailureWindowMs = 24 * 60 * 60_000

export const totpChallengeEndedMessage = 'This sign-in ended after 3 wrong codes. Sign in again.'

/**
 * Why a user's second-factor step is refused at `nowMs`, from their wrong codes of the last 24
 * hours (oldest first): the daily cap (ten of them: until the oldest that keeps the count at ten
 * is a day old), or the lock the last third failure started (15 minutes × 2^(locks − 1)). A lock
 * never resets the day's count. Undefined when the step is open. Rejects on a database error.
 */
export async function findTotpRefusal(
  db: SignerDatabase,
  userId: string,
  nowMs: number,
): Promise<AppError | undefined> {
  const rows = await db
    .select({ createdAt: signerTotpFailures.createdAt })
    .from(signerTotpFailures)
    .where(
      and(
        eq(signerTotpFailures.userId, userId),
        gt(signerTotpFailures.createdAt, new Date(nowMs - totpFailureWindowMs)),
      ),
    )
    .orderBy(asc(signerTotpFailures.createdAt), asc(signerTotpFailures.id))
  const times = rows.map((row) => row.createdAt.getTime())
  const failures = times.length
  if (failures >= maxTotpFailuresPerDay) {
    const until = (times[failures - maxTotpFailuresPerDay] ?? nowMs) + totpFailureWindowMs
    return createTotpLockedError({
      until,
      nowMs,
      reason: 'TOTP_DAILY_CAP',
      wording: 'Too many wrong authenticator codes were entered for this account today.',
    })
  }
  const locks = Math.floor(failures / totpFailuresPerLock)
  if (locks === 0) return undefined
  const lockStartedMs = times[locks * totpFailuresPerLock - 1] ?? 0
  const until = lockStartedMs + firstTotpLockMs * 2 ** (locks - 1)
  if (until <= nowMs) return undefined
  return createTotpLockedError({
    until,
    nowMs,
    reason: 'TOTP_LOCKED',
    wording: 'Too many wrong authenticator codes were entered, so this step is paused.',
  })
}

/** How many wrong codes a challenge (an `encryptedPayload`) has had. Rejects on a database error. */
export async function countChallengeFailures(db: SignerDatabase, challengeId: string): Promise<number> {
  const [row] = await db
    .select({ failures: count() })
    .from(signerTotpFailures)
    .where(eq(signerTotpFailures.challengeId, challengeId))
  return row?.failures ?? 0
}

/** Records one wrong code of `userId` on `challengeId` at `nowMs`. Rejects on a database error. */
export async function recordTotpFailure(
  db: SignerDatabase,
  input: { userId: string; challengeId: string; nowMs: number },
): Promise<void> {
  await db
    .insert(signerTotpFailures)
    .values({ userId: input.userId, challengeId: input.challengeId, createdAt: new Date(input.nowMs) })
}

/** 401 for a challenge that had its three wrong codes: the sign-in must start again. */
export function createTotpChallengeEndedError(): AppError {
  return new AppError('UNAUTHORIZED', {
    message: 'MFA challenge refused: three wrong codes',
    userMessage: totpChallengeEndedMessage,
    details: { reason: 'MFA_CHALLENGE_REFUSED' },
  })
}

function createTotpLockedError(input: {
  until: number
  nowMs: number
  reason: 'TOTP_LOCKED' | 'TOTP_DAILY_CAP'
  wording: string
}): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((input.until - input.nowMs) / 1000))
  return new AppError('RATE_LIMITED', {
    message: `Second factor refused: ${input.reason}`,
    userMessage: `${input.wording} Try again in ${describeWait(retryAfterSeconds)}.`,
    details: {
      reason: input.reason,
      retryAfterSeconds,
      lockedUntil: new Date(input.until).toISOString(),
    },
  })
}
