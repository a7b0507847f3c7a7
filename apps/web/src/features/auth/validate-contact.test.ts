import { describe, expect, it } from 'vitest'
import { checkEmail, checkPhone } from './validate-contact'

describe('checkEmail', () => {
  it('accepts a trimmed address', () => {
    expect(checkEmail('  ada@example.com ')).toEqual({ ok: true, value: 'ada@example.com' })
  })

  it('asks for an address when empty and explains a malformed one', () => {
    expect(checkEmail(' ')).toEqual({ ok: false, message: 'Enter your email address.' })
    for (const bad of ['ada', 'ada@example', 'ada@@example.com', 'a da@example.com', 'ada@.com']) {
      expect(checkEmail(bad)).toEqual({
        ok: false,
        message: 'Enter a valid email address, like name@example.com.',
      })
    }
  })
})

describe('checkPhone', () => {
  it('normalises spaces, dashes, brackets and a 00 prefix to E.164', () => {
    expect(checkPhone('+44 7700 900123')).toEqual({ ok: true, value: '+447700900123' })
    expect(checkPhone('+1 (415) 555-0100')).toEqual({ ok: true, value: '+14155550100' })
    expect(checkPhone('0044 7700 900123')).toEqual({ ok: true, value: '+447700900123' })
  })

  it('asks for the country code when the number has none', () => {
    const result = checkPhone('07700 900123')
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.message).toBe(
      'Start with + and your country code, for example +44 7700 900123.',
    )
  })

  it('refuses numbers that cannot be E.164', () => {
    for (const bad of ['+0 1234 5678', '+12', '+44 7700 9001 2345 6789', '+44 77OO 900123']) {
      expect(checkPhone(bad).ok).toBe(false)
    }
  })
})
