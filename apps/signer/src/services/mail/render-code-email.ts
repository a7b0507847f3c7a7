import type { SignerEmail } from '../../delivery.ts'
import { escapeHtml, productName, renderMailLayout } from './render-mail-layout.ts'

export type CodeEmailInput = {
  to: string
  code: string
  /** 'sign-in' for auth/signup, 'verify' for init-otp (confirming a new e-mail address). */
  purpose: 'sign-in' | 'verify'
  /** The magic link, when the user asked for one; the code is in the mail either way. */
  magicLink?: string
}

/**
 * Renders the branded sign-in or verification mail: an HTML part (the code large and selectable
 * on its own, the magic-link button when there is one) and a plain-text part with the same words.
 * Pure; never throws.
 */
export function renderCodeEmail(input: CodeEmailInput): SignerEmail {
  const { code, magicLink } = input
  const subject =
    input.purpose === 'verify'
      ? `Your ${productName} verification code`
      : magicLink
        ? `Your ${productName} sign-in link`
        : `Your ${productName} sign-in code`
  const lead =
    input.purpose === 'verify'
      ? `Enter this code in ${productName} to confirm this address:`
      : magicLink
        ? `Click the button to sign in to ${productName}, or enter this code:`
        : `Enter this code to sign in to ${productName}:`
  const expiry = 'This link and code expire in 10 minutes.'
  const expiryText = magicLink ? expiry : 'This code expires in 10 minutes.'
  const ignore = 'If you did not ask for this, ignore this e-mail: nobody can sign in without the code.'

  const text = [
    `${productName}`,
    '',
    magicLink ? `Sign in to ${productName}: ${magicLink}` : undefined,
    magicLink ? '' : undefined,
    magicLink ? 'Or enter this code:' : lead,
    '',
    `    ${code}`,
    '',
    expiryText,
    '',
    ignore,
  ]
    .filter((line) => line !== undefined)
    .join('\n')

  const button = magicLink
    ? `<tr><td align="center" style="padding:8px 0 24px">
<a href="${escapeHtml(magicLink)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;font-size:16px;padding:12px 28px;border-radius:8px">Sign in to ${productName}</a>
</td></tr>
<tr><td style="font-size:14px;color:#4b5563;padding-bottom:8px">Or enter this code:</td></tr>`
    : `<tr><td style="font-size:16px;color:#111827;padding-bottom:8px">${escapeHtml(lead)}</td></tr>`
  const html = renderMailLayout(
    subject,
    `${magicLink ? `<tr><td style="font-size:16px;color:#111827;padding-bottom:16px">${escapeHtml(lead)}</td></tr>` : ''}
${button}
<tr><td align="center" style="padding:8px 0 24px">
<div style="display:inline-block;font-family:'SFMono-Regular',Menlo,Consolas,monospace;font-size:36px;font-weight:700;letter-spacing:8px;color:#111827;background:#f3f4f6;border-radius:8px;padding:12px 20px;user-select:all;-webkit-user-select:all">${escapeHtml(code)}</div>
</td></tr>
<tr><td style="font-size:14px;color:#4b5563;padding-bottom:12px">${escapeHtml(expiryText)}</td></tr>
<tr><td style="font-size:13px;color:#6b7280">${escapeHtml(ignore)}</td></tr>`,
  )
  return { to: input.to, subject, text, html }
}
