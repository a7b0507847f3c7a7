import { defaultCodeSendCaps } from '../../signer-config.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { createOtp } from '../otp/create-otp.ts'
import { deliverCode } from './deliver-code.ts'

/**
 * `init-otp`: sends a code that proves control of an e-mail or phone (before it is added to an
 * account). Same limits as sign-in codes, which share the per-contact send counts and lock; the
 * new code retires the contact's older verification codes.
 *
 * Fails by rejecting with AppError RATE_LIMITED or the delivery's error.
 */
export async function sendVerificationCode(
  context: SignerContext,
  contact: Contact,
): Promise<{ otpId: string }> {
  const otp = await createOtp(context.db, {
    purpose: 'verify',
    contact,
    caps: context.config.signerCodeSendCaps ?? defaultCodeSendCaps,
    otpHashSecret: context.keyring.otpHashSecret,
    nowMs: context.now(),
  })
  await deliverCode(context, { otp, contact, purpose: 'verify' })
  return { otpId: otp.otpId }
}
