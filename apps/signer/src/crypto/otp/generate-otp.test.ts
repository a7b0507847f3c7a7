import { describe, expect, it } from 'vitest'
import { generateOtp } from './generate-otp.ts'

function scripted(values: number[]) {
  const calls: number[] = []
  const fill = (buffer: Uint32Array<ArrayBuffer>) => {
    const next = values.shift()
    if (next === undefined) throw new Error('random source exhausted')
    calls.push(next)
    buffer[0] = next
    return buffer
  }
  return { fill, calls }
}

describe('generateOtp', () => {
  it('returns six digits, keeping leading zeros', () => {
    expect(generateOtp(scripted([42]).fill)).toBe('000042')
    expect(generateOtp(scripted([999_999]).fill)).toBe('999999')
    expect(generateOtp(scripted([4_293_999_999]).fill)).toBe('999999')
  })

  it('redraws values in the biased tail above the largest multiple of 10^6 below 2^32', () => {
    const source = scripted([4_294_000_000, 2 ** 32 - 1, 123_456])
    expect(generateOtp(source.fill)).toBe('123456')
    expect(source.calls).toHaveLength(3)
  })

  it('uses the CSPRNG by default and spreads codes across the whole range', () => {
    const codes = Array.from({ length: 2_000 }, () => generateOtp())
    for (const code of codes) expect(code).toMatch(/^\d{6}$/)
    expect(new Set(codes).size).toBeGreaterThan(1_990)
    const firstDigits = new Set(codes.map((code) => code[0]))
    expect(firstDigits.size).toBe(10)
  })
})
