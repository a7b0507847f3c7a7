import { defaultCodeSendCaps } from '../../signer-config.ts'
import type { SignerContext } from '../../signer-context.ts'
import { findAccountByContact } from '../accounts/find-account.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { createOtp } from '../otp/create-otp.ts'
import { type CodeRequestOrigin, resolveCodeRequester } from '../otp/resolve-code-requester.ts'
import { deliverCode } from './deliver-code.ts'

/**
 * `init-otp`: sends a code that proves control of an e-mail or phone (before it is added to an
 * account). Same limits as sign-in codes, which share the per-requester send counts and the lock;
 * the new code retires the older verification codes the same requester asked for.
 *
 * Fails by rejecting with AppError RATE_LIMITED or the delivery's error.
 */
export async function sendVerificationCode(
  context: SignerContext,
  contact: Contact,
  origin: CodeRequestOrigin,
): Promise<{ otpId: string }> {
  const account = await findAccountByContact(context.db, contact)
  const otp = await createOtp(context.db, {
    purpose: 'verify',
    contact,
    requester: resolveCodeRequester(context.keyring.signInMarkerSecret, {
      origin,
      account,
      nowMs: context.now(),
    }),
    caps: context.config.signerCodeSendCaps ?? defaultCodeSendCaps,
    otpHashSecret: context.keyring.otpHashSecret,
    nowMs: context.now(),
  })
  await deliverCode(context, { otp, contact, purpose: 'verify' })
  return { otpId: otp.otpId }
}
