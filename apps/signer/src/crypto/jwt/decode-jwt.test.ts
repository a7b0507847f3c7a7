import { describe, expect, it } from 'vitest'
import { decodeJwt } from './decode-jwt.ts'

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('decodeJwt', () => {
  it('reads the header and payload of a compact JWT without checking its signature', () => {
    const token = `${encode({ alg: 'ES256', kid: 'k1' })}.${encode({ iss: 'https://i.example', sub: 'u1' })}.c2ln`
    expect(decodeJwt(token)).toEqual({
      header: { alg: 'ES256', kid: 'k1' },
      payload: { iss: 'https://i.example', sub: 'u1' },
    })
  })

  it("refuses what does not decode with 'Invalid token specified: …', naming the part", () => {
    const header = encode({ alg: 'ES256' })
    expect(() => decodeJwt('garbage')).toThrow(/^Invalid token specified: invalid (base64|json) for part #1/)
    expect(() => decodeJwt('')).toThrow('Invalid token specified: invalid json for part #1')
    expect(() => decodeJwt(header)).toThrow('Invalid token specified: missing part #2')
    expect(() => decodeJwt(`${header}.${encode({ sub: 'u1' })}`)).toThrow(
      'Invalid token specified: missing part #3',
    )
    expect(() => decodeJwt(`${header}.not base64!.sig`)).toThrow(
      'Invalid token specified: invalid base64 for part #2',
    )
    expect(() => decodeJwt(`${header}.${Buffer.from('{"sub":').toString('base64url')}.sig`)).toThrow(
      'Invalid token specified: invalid json for part #2',
    )
    expect(() => decodeJwt(`${header}.${encode([1, 2])}.sig`)).toThrow(
      'Invalid token specified: part #2 is not a JSON object',
    )
  })
})
