import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { renderLockNoticeEmail, renderLockNoticeSms } from '../mail/render-lock-notice.ts'

/**
 * Tells a contact, by mail or SMS, that too many wrong codes locked it until `lockedUntil`. Called
 * once per lock, by the failure that started it. Never rejects: the lock holds whether or not the
 * notice went out, and a failed notice must not turn the caller's refusal into a delivery error
 * (the delivery logs its own failures).
 */
export async function sendLockNotice(
  context: SignerContext,
  contact: Contact,
  lockedUntil: Date,
): Promise<void> {
  try {
    if (contact.channel === 'email') {
      await context.delivery.sendEmail(renderLockNoticeEmail({ to: contact.address, lockedUntil }))
    } else {
      await context.delivery.sendSms(renderLockNoticeSms({ to: contact.address, lockedUntil }))
    }
  } catch {
    // Logged by the delivery; see above.
  }
}
