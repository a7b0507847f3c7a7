import { eq } from 'drizzle-orm'
import { signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { renderCodeEmail } from '../mail/render-code-email.ts'
import { renderCodeSms } from '../mail/render-code-sms.ts'

/**
 * Sends a code (and the magic link, if any) by e-mail or SMS. When delivery fails the code row is
 * deleted, so an undelivered code neither works nor counts against the send limit.
 *
 * Fails by rejecting with the delivery's error (e.g. UPSTREAM_FAILED, SERVICE_UNAVAILABLE).
 */
export async function deliverCode(
  context: SignerContext,
  input: { otpId: string; contact: Contact; code: string; purpose: 'sign-in' | 'verify'; magicLink?: string },
): Promise<void> {
  const { contact, code } = input
  try {
    if (contact.channel === 'email') {
      await context.delivery.sendEmail(
        renderCodeEmail({
          to: contact.address,
          code,
          purpose: input.purpose,
          ...(input.magicLink === undefined ? {} : { magicLink: input.magicLink }),
        }),
      )
    } else {
      await context.delivery.sendSms(renderCodeSms({ to: contact.address, code }))
    }
  } catch (error) {
    await context.db.delete(signerOtps).where(eq(signerOtps.id, input.otpId))
    throw error
  }
}
