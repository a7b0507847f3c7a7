import { createValidationError } from '@quicklinks/core/parse-input-or-throw'

/**
 * A decimal string in a token ("12.5") as an integer in its smallest unit (12500000n for 6
 * decimals), exactly: no rounding. The string is already well formed (core's
 * decimalAmountSchema checked it). Throws AppError VALIDATION_FAILED naming `field` when it has
 * more decimals than the token, or comes to zero units.
 */
export function parseTokenAmountOrThrow(
  amount: string,
  token: { decimals: number; symbol: string },
  field = 'amount',
): bigint {
  const [whole = '0', fraction = ''] = amount.trim().split('.')
  const digits = fraction.replace(/0+$/, '')
  if (digits.length > token.decimals) {
    throw createValidationError(
      field,
      `${amount.trim()} has more decimals than ${token.symbol} allows (${token.decimals}); round it to ${token.decimals} decimal places`,
    )
  }
  const units =
    BigInt(whole) * 10n ** BigInt(token.decimals) + BigInt(digits.padEnd(token.decimals, '0') || '0')
  if (units <= 0n) throw createValidationError(field, 'must be more than zero')
  return units
}

/** An integer amount in a token's smallest unit as a decimal string ("12.5"), the way the API writes amounts. */
export function formatTokenAmount(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = decimals === 0 ? '' : digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
