import { describe, expect, it } from 'vitest'
import { createMagicLinkToken, isMagicLinkSecretMatch, parseMagicLinkToken } from './magic-link-token.ts'

const hashKey = crypto.getRandomValues(new Uint8Array(32))
const otpId = '0b9f6c52-43a1-4c1e-9a57-2f8e3d1c6b70'

describe('magic-link tokens', () => {
  it('name their code row and carry a secret that only matches its own hash and row', () => {
    const { token, secretHash } = createMagicLinkToken({ otpId, hashKey })
    const parsed = parseMagicLinkToken(token)
    expect(parsed?.otpId).toBe(otpId)
    expect(parsed?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(token).not.toContain(secretHash)
    const secret = parsed?.secret ?? ''
    expect(isMagicLinkSecretMatch({ otpId, secret, hashKey, storedHash: secretHash })).toBe(true)
    const otherRow = '1b9f6c52-43a1-4c1e-9a57-2f8e3d1c6b70'
    expect(isMagicLinkSecretMatch({ otpId: otherRow, secret, hashKey, storedHash: secretHash })).toBe(false)
    const otherKey = crypto.getRandomValues(new Uint8Array(32))
    expect(isMagicLinkSecretMatch({ otpId, secret, hashKey: otherKey, storedHash: secretHash })).toBe(false)
    const flipped = `${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`
    expect(isMagicLinkSecretMatch({ otpId, secret: flipped, hashKey, storedHash: secretHash })).toBe(false)
  })

  it('makes a different secret every time', () => {
    expect(createMagicLinkToken({ otpId, hashKey }).token).not.toBe(
      createMagicLinkToken({ otpId, hashKey }).token,
    )
  })

  it('refuses anything that is not a token', () => {
    const secret = 'a'.repeat(43)
    expect(parseMagicLinkToken(`${otpId}.${secret}`)).toEqual({ otpId, secret })
    for (const token of [
      '',
      otpId,
      `${otpId}.short`,
      `not-a-uuid.${secret}`,
      `${otpId}.${secret}.x`,
      `${otpId}.${'a'.repeat(42)}=`,
    ]) {
      expect(parseMagicLinkToken(token)).toBeUndefined()
    }
  })
})
