/**
 * Client-side checks of the contact a user signs in with, so the common mistakes get a clear
 * message beside the field before anything is sent. The signer checks again on its side.
 */

export type ContactCheck = { ok: true; value: string } | { ok: false; message: string }

// One @, something on both sides, a dot in the domain, no spaces: what a person can fix by eye.
const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

/** Trims and lower-cases nothing (the signer normalises); explains what is wrong otherwise. */
export function checkEmail(input: string): ContactCheck {
  const value = input.trim()
  if (value.length === 0) return { ok: false, message: 'Enter your email address.' }
  if (value.length > 254 || !emailPattern.test(value)) {
    return { ok: false, message: 'Enter a valid email address, like name@example.com.' }
  }
  return { ok: true, value }
}

/**
 * Normalises a phone number to E.164 (`+` and 8 to 15 digits, no leading 0 in the country code):
 * spaces, dots, dashes and brackets are dropped, a leading `00` becomes `+`.
 */
export function checkPhone(input: string): ContactCheck {
  const compact = input.trim().replace(/[\s().-]/g, '')
  if (compact.length === 0) return { ok: false, message: 'Enter your phone number.' }
  const withPlus = compact.startsWith('00') ? `+${compact.slice(2)}` : compact
  if (!withPlus.startsWith('+')) {
    return { ok: false, message: 'Start with + and your country code, for example +44 7700 900123.' }
  }
  if (!/^\+[1-9]\d{7,14}$/.test(withPlus)) {
    return { ok: false, message: 'Enter a valid phone number with its country code, like +1 415 555 0100.' }
  }
  return { ok: true, value: withPlus }
}
