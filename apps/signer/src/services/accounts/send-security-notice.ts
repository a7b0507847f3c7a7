import type { SignerDatabase } from '../../db/signer-database.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { renderSecurityNotice, type SecurityEvent } from '../mail/render-security-notice.ts'
import { findAccountByUserId, type SignerAccount } from './find-account.ts'

/** Where an account's notices go: its e-mail, else its phone; none for an account without contacts. */
export function noticeContact(account: Pick<SignerAccount, 'email' | 'phone'>): Contact | undefined {
  if (account.email !== null) return { channel: 'email', address: account.email }
  if (account.phone !== null) return { channel: 'sms', address: account.phone }
  return undefined
}

/**
 * Tells the owner of `userId` about a sign-in change (docs/signer.md#security-notices): one notice
 * to the account's notice contact (read in `db`, the change's transaction) and to each of
 * `alsoTo`, once per address. Call it as the last step of the change's transaction: it rejects
 * with the delivery's error when a notice cannot be handed over, and the change then rolls back.
 * An account with no contact (passkey or provider only) is told nothing.
 */
export async function sendSecurityNotice(
  context: SignerContext,
  db: SignerDatabase,
  input: { userId: string; event: SecurityEvent; alsoTo?: Contact[] },
): Promise<void> {
  const account = await findAccountByUserId(db, input.userId)
  const own = account === undefined ? undefined : noticeContact(account)
  const recipients: Contact[] = []
  for (const contact of [...(input.alsoTo ?? []), ...(own === undefined ? [] : [own])]) {
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
