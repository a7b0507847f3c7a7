import { describe, expect, it } from 'vitest'
import {
  formatAmountForUnit,
  formatTokenAmount,
  formatUsd,
  getShareOfBalance,
  getUsdValue,
  hasUsdPrice,
  parseAmountText,
  validateAmount,
} from './pay-amount'

const usdc = { decimals: 6, usdPrice: 1 }
const eth = { decimals: 18, usdPrice: 3000 }
const unpriced = { decimals: 18, usdPrice: null }

describe('parseAmountText', () => {
  it('reads token amounts in the smallest unit, cutting digits past the decimals', () => {
    expect(parseAmountText('1.5', 'TOKEN', usdc)).toBe(1_500_000n)
    expect(parseAmountText('.25', 'TOKEN', usdc)).toBe(250_000n)
    expect(parseAmountText('2.', 'TOKEN', usdc)).toBe(2_000_000n)
    expect(parseAmountText('0.1234567', 'TOKEN', usdc)).toBe(123_456n)
    expect(parseAmountText('0.000000000000000001', 'TOKEN', eth)).toBe(1n)
  })

  it('yields no amount for any other text', () => {
    for (const text of ['', '.', 'abc', '1.2.3', '-1', '1e3', '1,5', ' ']) {
      expect(parseAmountText(text, 'TOKEN', usdc)).toBeUndefined()
    }
  })

  it('accepts only digits as wei', () => {
    expect(parseAmountText('1000000', 'WEI', usdc)).toBe(1_000_000n)
    expect(parseAmountText('1.5', 'WEI', usdc)).toBeUndefined()
    expect(parseAmountText('', 'WEI', usdc)).toBeUndefined()
  })

  it('converts USD to the token by dividing by its price', () => {
    expect(parseAmountText('30', 'USD', eth)).toBe(10_000_000_000_000_000n)
    expect(parseAmountText('12.34', 'USD', usdc)).toBe(12_340_000n)
    expect(parseAmountText('10', 'USD', unpriced)).toBeUndefined()
  })
})

describe('formatting', () => {
  it('cuts token amounts to the display decimals and keeps zeros when fixed', () => {
    expect(formatTokenAmount(1_234_567n, 6, 4)).toBe('1.2345')
    expect(formatTokenAmount(1_000_000n, 6, 4)).toBe('1')
    expect(formatTokenAmount(0n, 18, 4, true)).toBe('0.0000')
    expect(formatTokenAmount(123n, 0)).toBe('123')
  })

  it('shows USD with two decimals', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50')
    expect(getUsdValue(2_000_000_000_000_000_000n, eth)).toBe(6000)
    expect(getUsdValue(1n, unpriced)).toBeUndefined()
  })

  it('fills a unit so that the text names back at most the same amount', () => {
    const amount = 333_333_333_333_333_333n
    expect(formatAmountForUnit(amount, 'WEI', eth)).toBe('333333333333333333')
    expect(parseAmountText(formatAmountForUnit(amount, 'TOKEN', eth), 'TOKEN', eth)).toBe(amount)
    const usdText = formatAmountForUnit(amount, 'USD', eth)
    expect(usdText).toBe('999.99')
    expect(parseAmountText(usdText, 'USD', eth)).toBeLessThanOrEqual(amount)
  })

  it('offers USD only with a positive price', () => {
    expect(hasUsdPrice(eth)).toBe(true)
    expect(hasUsdPrice(unpriced)).toBe(false)
    expect(hasUsdPrice({ decimals: 6, usdPrice: 0 })).toBe(false)
  })
})

describe('percent shortcuts and validation', () => {
  it('takes a share of the balance in integer maths', () => {
    expect(getShareOfBalance(1_000_001n, 25)).toBe(250_000n)
    expect(getShareOfBalance(1_000_001n, 100)).toBe(1_000_001n)
  })

  it('names the first failing rule', () => {
    expect(validateAmount(undefined, 10n)).toBe('Enter a valid amount.')
    expect(validateAmount(0n, 10n)).toBe('Enter a valid amount.')
    expect(validateAmount(5n, 0n)).toBe('Insufficient balance.')
    expect(validateAmount(11n, 10n)).toBe('Amount exceeds available balance.')
    expect(validateAmount(10n, 10n)).toBeNull()
  })

  it('checks the balance only once it has loaded', () => {
    expect(validateAmount(11n, null)).toBeNull()
  })
})
