import type { SignerContext } from '../../signer-context.ts'
import { consumeOtp } from '../otp/consume-otp.ts'
import { createVerificationToken } from '../verification/verification-token.ts'

/**
 * `verify-otp`: spends a verification code and returns a short-lived token naming the contact it
 * was sent to, for `update-email-auth` / `update-phone-auth`.
 *
 * Fails by rejecting with AppError OTP_INVALID / OTP_EXPIRED (401).
 */
export async function verifyContactCode(
  context: SignerContext,
  input: { otpId: string; otpCode: string },
): Promise<{ verificationToken: string }> {
  const otp = await consumeOtp(context.db, {
    otpId: input.otpId,
    code: input.otpCode,
    purpose: 'verify',
    otpHashSecret: context.keyring.otpHashSecret,
    nowMs: context.now(),
  })
  const verificationToken = await createVerificationToken(context.keyring.verificationTokenSecret, {
    contact: { channel: otp.channel, address: otp.contact },
    otpId: otp.id,
    nowMs: context.now(),
  })
  return { verificationToken }
}
