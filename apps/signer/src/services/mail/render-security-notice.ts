import type { Contact } from '../contacts/contact-schemas.ts'
import { type ContactChangeNotice, maskContact } from './render-contact-change-notice.ts'
import { escapeHtml, productName, renderMailLayout } from './render-mail-layout.ts'

/** A change to how the account signs in that its owner is told about (docs/signer.md#security-notices). */
export type SecurityEvent =
  | { kind: 'passkey-added'; passkeyName: string }
  | { kind: 'provider-linked'; providerId: string; email: string | null }
  | { kind: 'factor-confirmed'; factorName: string; firstFactor: boolean }
  | { kind: 'factor-deleted'; factorNames: string[]; factorsLeft: number }
  | { kind: 'contact-removed'; removed: Contact }

export type SecurityNoticeInput = {
  recipient: Contact
  event: SecurityEvent
  changedAtMs: number
}

/**
 * Renders the security notice of a sign-in change made with a session (docs/signer.md#security-notices):
 * what changed (a passkey's name, a provider's id and e-mail, an authenticator app's name, a
 * removed contact, partly masked unless the recipient is that contact), when (UTC), and what to do
 * if it was not the owner. An e-mail (HTML and plain text with the same words) for an e-mail
 * address, a short SMS for a phone. No links. Names a caller chose (a passkey's) are cut to
 * letters, digits and a few marks, so a notice never carries a link someone else wrote. Pure.
 */
export function renderSecurityNotice(input: SecurityNoticeInput): ContactChangeNotice {
  const { event, recipient } = input
  const when = `${new Date(input.changedAtMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const words = describe(event, recipient, when)
  if (recipient.channel === 'sms') {
    return {
      channel: 'sms',
      sms: { to: recipient.address, body: `${productName}: ${words.happened} Not you? ${words.smsIfNot}` },
    }
  }
  const ifYou = 'If this was you, there is nothing to do.'
  const text = [productName, '', words.happened, '', ifYou, words.ifNot].join('\n')
  const paragraph = (line: string, color = '#111827') =>
    `<tr><td style="font-size:15px;line-height:1.5;color:${color};padding-bottom:12px">${escapeHtml(line)}</td></tr>`
  const html = renderMailLayout(
    words.subject,
    `${paragraph(words.happened)}
${paragraph(ifYou, '#4b5563')}
${paragraph(words.ifNot, '#b91c1c')}`,
  )
  return { channel: 'email', email: { to: recipient.address, subject: words.subject, text, html } }
}

type NoticeWords = { subject: string; happened: string; ifNot: string; smsIfNot: string }

const sessionsKeepWorking =
  'Removing it does not sign out devices that are signed in already: they keep working until their sessions end.'

function describe(event: SecurityEvent, recipient: Contact, when: string): NoticeWords {
  const account = `your ${productName} account`
  switch (event.kind) {
    case 'passkey-added':
      return {
        subject: `A passkey was added to ${account}`,
        happened: `A passkey named "${plainName(event.passkeyName)}" was added to ${account} on ${when}. It can sign in to your account and use your wallet.`,
        ifNot: `If it was not you, sign in to ${productName} now and remove it in Settings → Sign-in methods. ${sessionsKeepWorking}`,
        smsIfNot: 'Sign in and remove it in Settings → Sign-in methods.',
      }
    case 'provider-linked': {
      const provider = plainName(event.providerId)
      const identity = event.email === null ? '' : ` (${event.email})`
      return {
        subject: `A ${provider} account was linked to ${account}`,
        happened: `A ${provider} account${identity} was linked to ${account} on ${when}. It can sign in to your account and use your wallet.`,
        ifNot: `If it was not you, sign in to ${productName} now and remove it in Settings → Sign-in methods. ${sessionsKeepWorking}`,
        smsIfNot: 'Sign in and remove it in Settings → Sign-in methods.',
      }
    }
    case 'factor-confirmed':
      return {
        subject: event.firstFactor
          ? `Two-step verification was turned on for ${account}`
          : `An authenticator app was added to ${account}`,
        happened: `The authenticator app "${plainName(event.factorName)}" was added to ${account} on ${when}. Sign-ins now ask for a code from an authenticator app.`,
        ifNot: `If it was not you, someone else's app now guards your sign-in: sign in with a passkey if you have one and remove it in Settings → Two-step verification, or contact the operator of this ${productName} service. ${sessionsKeepWorking}`,
        smsIfNot:
          'Sign in with a passkey and remove it in Settings → Two-step verification, or contact the service operator.',
      }
    case 'factor-deleted': {
      const names = event.factorNames.map((name) => `"${plainName(name)}"`).join(', ')
      const apps = event.factorNames.length === 1 ? 'authenticator app' : 'authenticator apps'
      const off = event.factorsLeft === 0
      return {
        subject: off
          ? `Two-step verification was turned off for ${account}`
          : `An authenticator app was removed from ${account}`,
        happened: `The ${apps} ${names} ${event.factorNames.length === 1 ? 'was' : 'were'} removed from ${account} on ${when}.${off ? ' Sign-ins no longer ask for a code from an authenticator app.' : ''}`,
        ifNot: `If it was not you, sign in to ${productName} now and turn two-step verification on again in Settings → Two-step verification. Devices that are signed in already keep working until their sessions end.`,
        smsIfNot: 'Sign in and turn it on again in Settings → Two-step verification.',
      }
    }
    case 'contact-removed': {
      const noun = event.removed.channel === 'email' ? 'e-mail address' : 'phone number'
      const shown =
        recipient.channel === event.removed.channel && recipient.address === event.removed.address
          ? event.removed.address
          : maskContact(event.removed)
      return {
        subject: `Your ${noun} was removed from ${account}`,
        happened: `The ${noun} ${shown} was removed from ${account} on ${when}. It no longer signs in, and every other device signed in to this account was signed out.`,
        ifNot: `If it was not you, sign in to ${productName} with another sign-in method now, check Settings → Sign-in methods and add it again.`,
        smsIfNot: 'Sign in and check Settings → Sign-in methods.',
      }
    }
  }
}

/**
 * A name as a notice shows it: letters, digits, spaces and - _ ' ( ) only (so no link or markup
 * someone else typed), at most 40 characters.
 */
function plainName(name: string): string {
  const plain = name
    .replace(/[^\p{L}\p{N} _'()-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 40)
  return plain === '' ? 'unnamed' : plain
}
