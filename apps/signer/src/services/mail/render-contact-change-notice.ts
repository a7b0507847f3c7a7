import type { SignerEmail, SignerSms } from '../../delivery.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { escapeHtml, productName, renderMailLayout } from './render-mail-layout.ts'

export type ContactChangeNoticeInput = {
  /** Who is told: the replaced contact, or the account's other contact when there was none. */
  recipient: Contact
  /** The sign-in contact that changed, before (null: there was none) and after. */
  changed: { channel: Contact['channel']; previous: string | null; next: string }
  changedAtMs: number
}

/** A notice ready for the delivery: an e-mail, or a text message for a phone. */
export type ContactChangeNotice =
  | { channel: 'email'; email: SignerEmail }
  | { channel: 'sms'; sms: SignerSms }

/**
 * Renders the security notice a contact change sends (docs/decisions/0014): which sign-in contact
 * changed, to what (partly masked), when (UTC), that every other session was signed out, and what
 * to do if it was not the owner. An e-mail (HTML and plain text with the same words) when the
 * recipient is an e-mail address, a short SMS for a phone. Pure; never throws.
 */
export function renderContactChangeNotice(input: ContactChangeNoticeInput): ContactChangeNotice {
  const { changed, recipient } = input
  const what = changed.channel === 'email' ? 'e-mail address' : 'phone number'
  const when = `${new Date(input.changedAtMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const next = maskContact({ channel: changed.channel, address: changed.next })
  const happened =
    changed.previous === null
      ? `A sign-in ${what} (${next}) was added to your ${productName} account on ${when}.`
      : `The ${what} you sign in to ${productName} with was changed to ${next} on ${when}.`

  if (recipient.channel === 'sms') {
    return {
      channel: 'sms',
      sms: {
        to: recipient.address,
        body: `${productName}: ${happened} Not you? Contact the service's operator now.`,
      },
    }
  }

  const subject =
    changed.previous === null
      ? `A sign-in ${what} was added to your ${productName} account`
      : `Your ${productName} sign-in ${what} was changed`
  const signedOut = 'Every other device signed in to this account was signed out.'
  const ifYou = 'If this was you, there is nothing to do.'
  const ifNot =
    changed.previous === null
      ? `If it was not you, someone else can sign in to your account: contact the operator of this ${productName} service now.`
      : `If it was not you, someone else now controls how your account signs in: contact the operator of this ${productName} service now.`
  const text = [productName, '', happened, signedOut, '', ifYou, ifNot].join('\n')
  const paragraph = (words: string, color = '#111827') =>
    `<tr><td style="font-size:15px;line-height:1.5;color:${color};padding-bottom:12px">${escapeHtml(words)}</td></tr>`
  const html = renderMailLayout(
    subject,
    `${paragraph(happened)}
${paragraph(signedOut)}
${paragraph(ifYou, '#4b5563')}
${paragraph(ifNot, '#b91c1c')}`,
  )
  return { channel: 'email', email: { to: recipient.address, subject, text, html } }
}

/**
 * Hides most of a contact, so a forwarded notice does not hand out the new address: the first two
 * characters of an e-mail's local part and its domain, or a phone's first three and last two.
 */
export function maskContact(contact: Contact): string {
  if (contact.channel === 'email') {
    const at = contact.address.lastIndexOf('@')
    const local = contact.address.slice(0, Math.max(at, 0))
    return `${local.slice(0, Math.min(2, Math.max(local.length - 1, 1)))}…${contact.address.slice(at)}`
  }
  return `${contact.address.slice(0, 3)}…${contact.address.slice(-2)}`
}
