import { AppError } from '@quicklinks/core/app-error'
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import { isOtpMatch } from '../../crypto/otp/hash-otp.ts'
import { isMagicLinkSecretMatch } from '../../crypto/otp/magic-link-token.ts'
import { type SignerOtp, type SignerOtpPurpose, signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { createContactLockedError, findContactLock, recordCodeFailure } from './record-code-failure.ts'
import { sendLockNotice } from './send-lock-notice.ts'

/** Three tries per code; the third wrong one kills it. */
export const maxOtpAttempts = 3

/** What proves the mail or SMS was read: the 6-digit code, or the secret of the mail's magic link. */
export type OtpSecret = { kind: 'code'; code: string } | { kind: 'magicLink'; secret: string }

export const magicLinkExpiredMessage = 'This sign-in link no longer works. Request a new one.'
export const otpSupersededMessage =
  'A newer code was sent to this address. Enter the code from the latest message.'

/** The code (or link) is used, expired, killed by wrong tries, replaced by a newer one, or unknown. */
export function createOtpExpiredError(reason: string, kind: OtpSecret['kind'] = 'code'): AppError {
  return new AppError('OTP_EXPIRED', {
    message: `OTP refused: ${reason}`,
    ...(kind === 'magicLink' ? { userMessage: magicLinkExpiredMessage } : {}),
  })
}

/**
 * Spends one try of a code (or of its magic link) and, when it is right, marks it used; returns
 * the row. In order:
 * - a locked contact is refused outright, even with the right code (see recordCodeFailure), unless
 *   the code was a reserved send to the owner's browser (docs/decisions/0022);
 * - a code replaced by a newer one for the same contact and purpose is refused;
 * - a try is reserved atomically (`attempts < 3`, not used, not replaced, not expired), so even
 *   many concurrent guesses get at most three comparisons per code; the comparison is constant-time;
 * - a wrong one counts against the contact's failure budget; the failure that spends it locks
 *   the contact and sends the contact one notice.
 * A guess already past the lock check when a concurrent failure starts the lock is still compared:
 * at most the tries left on the contact's live codes.
 *
 * Fails by rejecting with AppError RATE_LIMITED (429, the lock, with when to try again),
 * OTP_INVALID (401, "That code is not right. You have N tries left.") for a wrong code with tries
 * left, OTP_EXPIRED (401) for the third wrong try and for an unknown, expired, used, replaced or
 * dead code (a link's own message for a link), or on a database error.
 */
export async function consumeOtp(
  context: SignerContext,
  input: { otpId: string; purpose: SignerOtpPurpose; secret: OtpSecret },
): Promise<SignerOtp> {
  const { db } = context
  const { kind } = input.secret
  const nowMs = context.now()
  const now = new Date(nowMs)
  const [issued] = await db
    .select()
    .from(signerOtps)
    .where(and(eq(signerOtps.id, input.otpId), eq(signerOtps.purpose, input.purpose)))
  if (issued === undefined) throw createOtpExpiredError('unknown', kind)
  const contact: Contact = { channel: issued.channel, address: issued.contact }
  // A code sent to the owner's browser (a reserved send, docs/decisions/0022) is not stopped by a
  // lock strangers' wrong codes caused; its own wrong tries still count against the budget.
  if (!issued.isReserved) {
    const lockedUntil = await findContactLock(db, contact, nowMs)
    if (lockedUntil !== undefined) throw createContactLockedError(lockedUntil, nowMs)
  }
  if (issued.supersededAt !== null) {
    throw new AppError('OTP_EXPIRED', {
      message: 'OTP refused: a newer code was sent',
      userMessage: kind === 'magicLink' ? magicLinkExpiredMessage : otpSupersededMessage,
    })
  }
  if (kind === 'magicLink' && issued.magicLinkHash === null)
    throw createOtpExpiredError('no magic link', kind)

  const [reserved] = await db
    .update(signerOtps)
    .set({ attempts: sql`${signerOtps.attempts} + 1` })
    .where(
      and(
        eq(signerOtps.id, issued.id),
        isNull(signerOtps.usedAt),
        isNull(signerOtps.supersededAt),
        lt(signerOtps.attempts, maxOtpAttempts),
        gt(signerOtps.expiresAt, now),
      ),
    )
    .returning()
  if (reserved === undefined) throw createOtpExpiredError('used, expired, replaced or out of tries', kind)

  const isMatch =
    input.secret.kind === 'code'
      ? isOtpMatch({
          code: input.secret.code,
          otpId: reserved.id,
          secret: context.keyring.otpHashSecret,
          storedHash: reserved.codeHash,
        })
      : isMagicLinkSecretMatch({
          otpId: reserved.id,
          secret: input.secret.secret,
          hashKey: context.keyring.otpHashSecret,
          storedHash: reserved.magicLinkHash ?? '',
        })
  if (!isMatch) {
    const failure = await recordCodeFailure(db, { contact, nowMs })
    if (failure.lockedUntil !== undefined) {
      if (failure.isLockStarted) await sendLockNotice(context, contact, failure.lockedUntil)
      if (!reserved.isReserved) throw createContactLockedError(failure.lockedUntil, nowMs)
    }
    const triesLeft = maxOtpAttempts - reserved.attempts
    if (triesLeft <= 0 || kind === 'magicLink') throw createOtpExpiredError('wrong secret', kind)
    throw new AppError('OTP_INVALID', {
      message: 'OTP mismatch',
      userMessage: `That code is not right. You have ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`,
      details: { triesLeft },
    })
  }

  const [used] = await db
    .update(signerOtps)
    .set({ usedAt: now })
    .where(and(eq(signerOtps.id, reserved.id), isNull(signerOtps.usedAt)))
    .returning()
  if (used === undefined) throw createOtpExpiredError('used by a concurrent request', kind)
  return used
}
