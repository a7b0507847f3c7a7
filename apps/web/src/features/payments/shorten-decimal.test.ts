import { describe, expect, it } from 'vitest'
import { shortenDecimal } from './payment-item'

describe('shortenDecimal', () => {
  it('cuts to 6 fraction digits without rounding and drops trailing zeros', () => {
    expect(shortenDecimal('0.067542917191072818')).toBe('0.067542')
    expect(shortenDecimal('2.020203')).toBe('2.020203')
    expect(shortenDecimal('12.500000')).toBe('12.5')
    expect(shortenDecimal('3.0000009')).toBe('3')
    expect(shortenDecimal('42')).toBe('42')
  })
})
