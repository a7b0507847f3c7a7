/**
 * docs/product.md#amounts: what the payer types (USD, token or wei) becomes an integer amount in the
 * token's smallest unit, with integer maths only (bigint); USD goes through the token's USD price.
 */

export type AmountUnit = 'USD' | 'TOKEN' | 'WEI'

/** What the amount maths needs to know of the token. */
export type AmountToken = { decimals: number; usdPrice: number | null }

/** The USD price is kept as an integer of 10^-8 dollars, so conversions stay in bigint. */
const priceScaleDigits = 8
const usdScaleDigits = 18

/** The percent shortcuts; 100 is 'MAX' (docs/product.md#constants). */
export const percentShortcuts = [25, 50, 75, 100] as const

const decimalPattern = /^(\d*)(?:\.(\d*))?$/

/** True when the token has a positive USD price (the USD unit is offered only then). */
export function hasUsdPrice(token: AmountToken): boolean {
  return token.usdPrice !== null && Number.isFinite(token.usdPrice) && token.usdPrice > 0
}

/**
 * Reads digits with one optional decimal point as an integer scaled by 10^scale, dropping
 * fraction digits beyond the scale. Undefined for any other text, an empty string or a lone '.'.
 */
export function parseScaledDecimal(text: string, scale: number): bigint | undefined {
  const match = decimalPattern.exec(text.trim())
  if (match === null) return undefined
  const whole = match[1] ?? ''
  const fraction = match[2] ?? ''
  if (whole.length === 0 && fraction.length === 0) return undefined
  const digits = `${whole}${fraction.slice(0, scale).padEnd(scale, '0')}`
  return BigInt(digits.length === 0 ? '0' : digits)
}

function toScaledPrice(usdPrice: number | null): bigint | undefined {
  if (usdPrice === null || !Number.isFinite(usdPrice) || usdPrice <= 0) return undefined
  const scaled = BigInt(Math.round(usdPrice * 10 ** priceScaleDigits))
  return scaled > 0n ? scaled : undefined
}

/**
 * The amount in the token's smallest unit that the text names in `unit`, or undefined when the
 * text is no amount (wei: digits only; token and USD: digits with one optional decimal point; USD
 * needs a positive price). USD converts by dividing by the token's USD price, rounding down.
 */
export function parseAmountText(text: string, unit: AmountUnit, token: AmountToken): bigint | undefined {
  switch (unit) {
    case 'WEI': {
      const trimmed = text.trim()
      return /^\d+$/.test(trimmed) ? BigInt(trimmed) : undefined
    }
    case 'TOKEN':
      return parseScaledDecimal(text, token.decimals)
    case 'USD': {
      const usd = parseScaledDecimal(text, usdScaleDigits)
      const price = toScaledPrice(token.usdPrice)
      if (usd === undefined || price === undefined) return undefined
      return (usd * 10n ** BigInt(token.decimals) * 10n ** BigInt(priceScaleDigits)) / (price * 10n ** 18n)
    }
    default: {
      const unknownUnit: never = unit
      return unknownUnit
    }
  }
}

/**
 * Formats an integer amount of a token with `decimals` as a decimal string with at most
 * `maxDecimals` fraction digits (cut, never rounded up). `fixed` keeps trailing zeros
 * ('Balance: 0.0000'); otherwise they are trimmed.
 */
export function formatTokenAmount(
  value: bigint,
  decimals: number,
  maxDecimals: number = decimals,
  fixed = false,
): string {
  const negative = value < 0n
  const absolute = negative ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = absolute / base
  let fraction = (absolute % base).toString().padStart(decimals, '0').slice(0, maxDecimals)
  if (!fixed) fraction = fraction.replace(/0+$/, '')
  const sign = negative ? '-' : ''
  return fraction.length > 0 ? `${sign}${whole}.${fraction}` : `${sign}${whole}`
}

/** The USD value of an integer amount, or undefined without a positive price. */
export function getUsdValue(value: bigint, token: AmountToken): number | undefined {
  const price = toScaledPrice(token.usdPrice)
  if (price === undefined) return undefined
  // Cents, computed in bigint, then one division in floating point for display only.
  const cents = (value * price * 100n) / (10n ** BigInt(token.decimals) * 10n ** BigInt(priceScaleDigits))
  return Number(cents) / 100
}

const usdFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/** '$1,234.50': USD with two fraction digits (docs/product.md#amounts). */
export function formatUsd(value: number): string {
  return usdFormat.format(value)
}

/**
 * The text that shows an integer amount in `unit`, for the percent shortcuts and the unit toggle:
 * wei as digits, the token amount exactly, USD with two decimals rounded down (so that the amount
 * it names back never exceeds the one it came from).
 */
export function formatAmountForUnit(value: bigint, unit: AmountUnit, token: AmountToken): string {
  switch (unit) {
    case 'WEI':
      return value.toString()
    case 'TOKEN':
      return formatTokenAmount(value, token.decimals)
    case 'USD': {
      const usd = getUsdValue(value, token)
      return usd === undefined ? '' : usd.toFixed(2)
    }
    default: {
      const unknownUnit: never = unit
      return unknownUnit
    }
  }
}

/** A percent shortcut takes that share of the balance, in integer maths (docs/product.md#amounts). */
export function getShareOfBalance(balance: bigint, percent: number): bigint {
  return (balance * BigInt(Math.round(percent))) / 100n
}

/**
 * The amount checks (docs/product.md#amounts), in order: no or non-positive amount 'Enter a valid amount.';
 * zero balance 'Insufficient balance.'; above the balance 'Amount exceeds available balance.'. The
 * balance checks wait for the balance (`null` while it loads). Null when the amount is valid.
 */
export function validateAmount(amount: bigint | undefined, balance: bigint | null): string | null {
  if (amount === undefined || amount <= 0n) return 'Enter a valid amount.'
  if (balance === null) return null
  if (balance === 0n) return 'Insufficient balance.'
  if (amount > balance) return 'Amount exceeds available balance.'
  return null
}
