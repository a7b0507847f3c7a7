import { describe, expect, it } from 'vitest'
import { hashOtp, isOtpMatch } from './hash-otp.ts'

const secret = crypto.getRandomValues(new Uint8Array(32))

describe('hashOtp and isOtpMatch', () => {
  it('match the right code for the right otp id only', () => {
    const storedHash = hashOtp({ code: '012345', otpId: 'otp-1', secret })
    expect(storedHash).toMatch(/^[0-9a-f]{64}$/)
    expect(isOtpMatch({ code: '012345', otpId: 'otp-1', secret, storedHash })).toBe(true)
    expect(isOtpMatch({ code: '012346', otpId: 'otp-1', secret, storedHash })).toBe(false)
    expect(isOtpMatch({ code: '012345', otpId: 'otp-2', secret, storedHash })).toBe(false)
  })

  it('depend on the server secret, so a leaked hash cannot be brute-forced without it', () => {
    const storedHash = hashOtp({ code: '111111', otpId: 'otp-1', secret })
    const otherSecret = crypto.getRandomValues(new Uint8Array(32))
    expect(hashOtp({ code: '111111', otpId: 'otp-1', secret: otherSecret })).not.toBe(storedHash)
    expect(isOtpMatch({ code: '111111', otpId: 'otp-1', secret: otherSecret, storedHash })).toBe(false)
  })

  it('keep fields apart: otp id and code cannot trade characters', () => {
    expect(hashOtp({ code: '123456', otpId: 'otp-1', secret })).not.toBe(
      hashOtp({ code: '234567', otpId: 'otp-11', secret }),
    )
  })

  it('treat malformed submissions and stored hashes as a mismatch, not an error', () => {
    const storedHash = hashOtp({ code: '123456', otpId: 'otp-1', secret })
    for (const code of ['12345', '1234567', ' 123456', '12345a', '']) {
      expect(isOtpMatch({ code, otpId: 'otp-1', secret, storedHash })).toBe(false)
    }
    expect(isOtpMatch({ code: '123456', otpId: 'otp-1', secret, storedHash: storedHash.slice(2) })).toBe(
      false,
    )
    expect(isOtpMatch({ code: '123456', otpId: 'otp-1', secret, storedHash: 'zz'.repeat(32) })).toBe(false)
  })

  it('refuse a short server secret', () => {
    expect(() => hashOtp({ code: '123456', otpId: 'otp-1', secret: new Uint8Array(16) })).toThrow(TypeError)
  })
})
