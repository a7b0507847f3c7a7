import type { SignerEmail, SignerSms } from '../../delivery.ts'
import { escapeHtml, productName, renderMailLayout } from './render-mail-layout.ts'

/** `2025-03-04 17:05 UTC`: people read the time; the mail does not know their zone. */
function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/**
 * The mail a contact gets once when too many wrong codes lock it: what happened, until when, and
 * that nobody got in. Plain words in both parts; no link, so it cannot be mistaken for phishing
 * bait. Pure; never throws.
 */
export function renderLockNoticeEmail(input: { to: string; lockedUntil: Date }): SignerEmail {
  const subject = `${productName} sign-in is paused for this address`
  const paragraphs = [
    `Too many wrong sign-in codes were entered for this e-mail address, so ${productName} has paused sign-in with it until ${formatUtc(input.lockedUntil)}.`,
    'Nobody signed in: every one of those codes was wrong. Your wallet is safe.',
    'If this was you, wait until then and ask for a new code. If it was not you, you do not need to do anything; never share the codes we send you.',
  ]
  const text = [productName, '', ...paragraphs.flatMap((paragraph) => [paragraph, ''])].join('\n').trimEnd()
  const html = renderMailLayout(
    subject,
    `${paragraphs.map((paragraph) => `<tr><td style="font-size:15px;color:#111827;padding-bottom:16px">${escapeHtml(paragraph)}</td></tr>`).join('\n')}`,
  )
  return { to: input.to, subject, text, html }
}

/** The text a phone contact gets once when too many wrong codes lock it. Pure. */
export function renderLockNoticeSms(input: { to: string; lockedUntil: Date }): SignerSms {
  return {
    to: input.to,
    body: `${productName}: too many wrong codes were entered for this number, so sign-in is paused until ${formatUtc(input.lockedUntil)}. Nobody signed in.`,
  }
}
