import { eq } from 'drizzle-orm'
import { type SignerOtpPurpose, signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { renderCodeEmail } from '../mail/render-code-email.ts'
import { renderCodeSms } from '../mail/render-code-sms.ts'
import type { CreatedOtp } from '../otp/create-otp.ts'
import { supersedeOlderOtps } from '../otp/supersede-older-otps.ts'

/**
 * Sends a code (and the magic link, if any) by e-mail or SMS, then retires the contact's older
 * codes of the same purpose asked for by the same requester. When delivery fails the new code row is deleted, so an undelivered
 * code neither works nor counts against the send limits, and the older codes stay usable.
 *
 * Fails by rejecting with the delivery's error (e.g. UPSTREAM_FAILED, SERVICE_UNAVAILABLE).
 */
export async function deliverCode(
  context: SignerContext,
  input: { otp: CreatedOtp; contact: Contact; purpose: SignerOtpPurpose; magicLink?: string },
): Promise<void> {
  const { contact, otp } = input
  try {
    if (contact.channel === 'email') {
      await context.delivery.sendEmail(
        renderCodeEmail({
          to: contact.address,
          code: otp.code,
          purpose: input.purpose === 'auth' ? 'sign-in' : 'verify',
          ...(input.magicLink === undefined ? {} : { magicLink: input.magicLink }),
        }),
      )
    } else {
      await context.delivery.sendSms(renderCodeSms({ to: contact.address, code: otp.code }))
    }
  } catch (error) {
    await context.db.delete(signerOtps).where(eq(signerOtps.id, otp.otpId))
    throw error
  }
  await supersedeOlderOtps(context.db, {
    contact,
    purpose: input.purpose,
    requester: otp.requester.key,
    createdAt: otp.createdAt,
    nowMs: context.now(),
  })
}
