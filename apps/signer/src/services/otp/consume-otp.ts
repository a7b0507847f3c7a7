import { AppError } from '@quicklinks/core/app-error'
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import type { SignerDatabase } from '../../db/signer-database.ts'
import { type SignerOtp, type SignerOtpPurpose, signerOtps } from '../../db/signer-schema.ts'
import { isOtpMatch } from '../../otp/hash-otp.ts'

/** Three tries per code; the third wrong one kills it. */
export const maxOtpAttempts = 3

/** The code is used, expired, killed by wrong tries, or unknown. */
export function createOtpExpiredError(reason: string): AppError {
  return new AppError('OTP_EXPIRED', { message: `OTP refused: ${reason}` })
}

/**
 * Spends one try of a code and, when the code is right, marks it used; returns the row. A try is
 * reserved atomically before the comparison (`attempts < 3`, not used, not expired), so even many
 * concurrent guesses get at most three comparisons per code. The comparison is constant-time.
 *
 * Fails by rejecting with AppError OTP_INVALID (401, "That code is not right. You have N tries
 * left.") for a wrong code with tries left, OTP_EXPIRED (401) for the third wrong try and for an
 * unknown, expired, used or dead code, or on a database error.
 */
export async function consumeOtp(
  db: SignerDatabase,
  input: { otpId: string; code: string; purpose: SignerOtpPurpose; otpHashSecret: Uint8Array; nowMs: number },
): Promise<SignerOtp> {
  const now = new Date(input.nowMs)
  const [reserved] = await db
    .update(signerOtps)
    .set({ attempts: sql`${signerOtps.attempts} + 1` })
    .where(
      and(
        eq(signerOtps.id, input.otpId),
        eq(signerOtps.purpose, input.purpose),
        isNull(signerOtps.usedAt),
        lt(signerOtps.attempts, maxOtpAttempts),
        gt(signerOtps.expiresAt, now),
      ),
    )
    .returning()
  if (reserved === undefined) throw createOtpExpiredError('unknown, used, expired or out of tries')

  const isMatch = isOtpMatch({
    code: input.code,
    otpId: reserved.id,
    secret: input.otpHashSecret,
    storedHash: reserved.codeHash,
  })
  if (!isMatch) {
    const triesLeft = maxOtpAttempts - reserved.attempts
    if (triesLeft <= 0) throw createOtpExpiredError('third wrong try')
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
  if (used === undefined) throw createOtpExpiredError('used by a concurrent request')
  return used
}
