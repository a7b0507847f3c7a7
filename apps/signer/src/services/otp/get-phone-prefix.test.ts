import { describe, expect, it } from 'vitest'
import { getPhonePrefix } from './get-phone-prefix.ts'

describe('getPhonePrefix', () => {
  it('keeps the country calling code, whatever its length, and three national digits', () => {
    expect(getPhonePrefix('+14155550123')).toBe('+1415')
    expect(getPhonePrefix('+79161234567')).toBe('+7916')
    expect(getPhonePrefix('+447911123456')).toBe('+44791')
    expect(getPhonePrefix('+4915112345678')).toBe('+49151')
    expect(getPhonePrefix('+37120000000')).toBe('+371200')
    expect(getPhonePrefix('+2348031234567')).toBe('+234803')
  })

  it('puts numbers of one range together and other ranges apart', () => {
    expect(getPhonePrefix('+447911000001')).toBe(getPhonePrefix('+447911999999'))
    expect(getPhonePrefix('+447811000001')).not.toBe(getPhonePrefix('+447911000001'))
  })

  it('throws for a number that is not E.164', () => {
    expect(() => getPhonePrefix('4155550123')).toThrow(TypeError)
  })
})
