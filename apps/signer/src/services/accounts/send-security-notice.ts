import type { SignerDatabase } from '../../db/signer-database.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { renderSecurityNotice, type SecurityEvent } from '../mail/render-security-notice.ts'
import { findAccountByUserId, type SignerAccount } from './find-account.ts'

/**
 * Where an account's notices go: every contact it has, its e-mail and its phone (a way in added by
 * someone else must reach the owner wherever they read; docs/signer.md#security-notices).
 */
export function noticeContacts(account: Pick<SignerAccount, 'email' | 'phone'>): Contact[] {
  return [
    ...(account.email === null ? [] : [{ channel: 'email' as const, address: account.email }]),
    ...(account.phone === null ? [] : [{ channel: 'sms' as const, address: account.phone }]),
  ]
}

/**
 * Tells the owner of `userId` about a sign-in change (docs/signer.md#security-notices): one notice
 * to each of the account's contacts, e-mail and phone (read in `db`, the change's transaction),
 * and to each of `alsoTo`, once per address. Call it as the last step of the change's transaction: it rejects
 * with the delivery's error when a notice cannot be handed over, and the change then rolls back.
 * An account with no contact (passkey or provider only) is told nothing.
 */
export async function sendSecurityNotice(
  context: SignerContext,
  db: SignerDatabase,
  input: { userId: string; event: SecurityEvent; alsoTo?: Contact[] },
): Promise<void> {
  const account = await findAccountByUserId(db, input.userId)
  const own = account === undefined ? [] : noticeContacts(account)
  const recipients: Contact[] = []
  for (const contact of [...(input.alsoTo ?? []), ...own]) {
    if (!recipients.some((seen) => seen.channel === contact.channel && seen.address === contact.address)) {
      recipients.push(contact)
    }
  }
  for (const recipient of recipients) {
    const notice = renderSecurityNotice({ recipient, event: input.event, changedAtMs: context.now() })
    if (notice.channel === 'email') await context.delivery.sendEmail(notice.email)
    else await context.delivery.sendSms(notice.sms)
  }
}
