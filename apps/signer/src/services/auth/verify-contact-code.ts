import type { SignerContext } from '../../signer-context.ts'
import { consumeOtp } from '../otp/consume-otp.ts'
import { createVerificationToken } from '../verification/verification-token.ts'

/**
 * `verify-otp`: spends a verification code and returns a short-lived token naming the contact it
 * was sent to, for `update-email-auth` / `update-phone-auth`.
 *
 * Fails by rejecting with AppError OTP_INVALID / OTP_EXPIRED (401), or RATE_LIMITED (429) while
 * the contact is locked after too many wrong codes.
 */
export async function verifyContactCode(
  context: SignerContext,
  input: { otpId: string; otpCode: string },
): Promise<{ verificationToken: string }> {
  const otp = await consumeOtp(context, {
    otpId: input.otpId,
    purpose: 'verify',
    secret: { kind: 'code', code: input.otpCode },
  })
  const verificationToken = await createVerificationToken(context.keyring.verificationTokenSecret, {
    contact: { channel: otp.channel, address: otp.contact },
    otpId: otp.id,
    nowMs: context.now(),
  })
  return { verificationToken }
}
