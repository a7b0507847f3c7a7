// ITU-T E.164 country calling codes of one and two digits; every other code has three.
const oneDigitCodes = new Set(['1', '7'])
const twoDigitCodes = new Set([
  '20',
  '27',
  '30',
  '31',
  '32',
  '33',
  '34',
  '36',
  '39',
  '40',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '81',
  '82',
  '84',
  '86',
  '90',
  '91',
  '92',
  '93',
  '94',
  '95',
  '98',
])

/** Digits of the national number that the prefix keeps after the country code. */
const nationalDigits = 3

/**
 * The number range an E.164 phone belongs to for the daily SMS cap: `+`, the country calling code,
 * then the first three digits of the national number (`+14155550123` → `+1415`, `+447911123456` →
 * `+44791`, `+37120000000` → `+371200`).
 *
 * Why: SMS pumping sends codes to many numbers of one premium or operator range; a cap per range
 * stops it without touching other countries or operators.
 *
 * Pure; expects a number `phoneSchema` accepted (`+` and 7 to 15 digits) and throws a `TypeError`
 * for anything else.
 */
export function getPhonePrefix(phone: string): string {
  const digits = /^\+([1-9]\d{6,14})$/.exec(phone)?.[1]
  if (digits === undefined) throw new TypeError('getPhonePrefix: not an E.164 number')
  const countryCodeLength = oneDigitCodes.has(digits.slice(0, 1))
    ? 1
    : twoDigitCodes.has(digits.slice(0, 2))
      ? 2
      : 3
  return `+${digits.slice(0, countryCodeLength + nationalDigits)}`
}
