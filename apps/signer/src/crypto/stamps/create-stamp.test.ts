import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { stampHeaderName } from '@quicklinks/protocol/stamped-call'
import { base64urlnopad } from '@scure/base'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { verifyStampSignature } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { createStamp } from './create-stamp.ts'
import { decodeStampHeader } from './decode-stamp-header.ts'
import { verifyStamp } from './verify-stamp.ts'

function newApiKey() {
  const privateKey = p256.utils.randomSecretKey()
  return {
    privateKey,
    apiPrivateKey: bytesToHex(privateKey),
    apiPublicKey: bytesToHex(p256.getPublicKey(privateKey)),
  }
}

function decodeJson(header: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64urlnopad.decode(header)))
}

async function verifyWithOurs(stampHeader: string, body: string) {
  const now = Number(JSON.parse(body).timestampMs)
  return verifyStamp(
    { stampHeader, body: utf8ToBytes(body) },
    {
      now: () => now,
      findKey: async () => ({ expiresAtMs: null, revokedAtMs: null }),
      replayStore: { hasSeen: async () => false, markSeen: async () => true },
    },
  )
}

const bodyFor = (index: number) =>
  JSON.stringify({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: String(1_760_000_000_000 + index),
    organizationId: 'org-ü-✓',
    parameters: { payload: `0x${index.toString(16).padStart(64, '0')}` },
  })

describe('createStamp interoperates with @turnkey/api-key-stamper', () => {
  it.each(['node', 'purejs'] as const)(
    'verifies stamps made by the reference stamper (%s runtime), high-S ones included',
    async (runtime) => {
      const key = newApiKey()
      const stamper = new ApiKeyStamper({ ...key, runtimeOverride: runtime })
      let highS = 0
      for (let index = 0; index < 24; index += 1) {
        const body = bodyFor(index)
        const { stampHeaderName: name, stampHeaderValue } = await stamper.stamp(body)
        expect(name).toBe(stampHeaderName)
        const decoded = decodeStampHeader(stampHeaderValue)
        if (!decoded.ok) throw new Error(decoded.message)
        if (p256.Signature.fromBytes(decoded.stamp.signature, 'der').hasHighS()) highS += 1
        const result = await verifyWithOurs(stampHeaderValue, body)
        expect(result.ok ? 'ok' : result.error.reason).toBe('ok')
      }
      // Node's signer is randomised: over 24 stamps a high-S one is all but certain (1 - 2^-24).
      if (runtime === 'node') expect(highS).toBeGreaterThan(0)
    },
  )

  it('produces the reference header byte for byte, up to the low-S normalisation', async () => {
    const key = newApiKey()
    const stamper = new ApiKeyStamper({ ...key, runtimeOverride: 'purejs' })
    for (let index = 0; index < 8; index += 1) {
      const body = bodyFor(index)
      const reference = decodeJson((await stamper.stamp(body)).stampHeaderValue)
      const parsed = p256.Signature.fromBytes(hexToBytes(String(reference.signature)), 'der')
      const signature = parsed.hasHighS()
        ? new p256.Signature(parsed.r, p256.Point.CURVE().n - parsed.s)
        : parsed
      const expected = base64urlnopad.encode(
        utf8ToBytes(JSON.stringify({ ...reference, signature: bytesToHex(signature.toBytes('der')) })),
      )
      expect(createStamp({ privateKey: key.apiPrivateKey, body })).toBe(expected)
    }
  })

  it('emits stamps the reference verifier accepts, in the reference field order', async () => {
    const key = newApiKey()
    const body = bodyFor(1)
    const header = createStamp({ privateKey: key.privateKey, body })
    expect(header).toMatch(/^[A-Za-z0-9_-]+$/)
    const stamp = decodeJson(header)
    expect(Object.keys(stamp)).toEqual(['publicKey', 'scheme', 'signature'])
    expect(stamp.publicKey).toBe(key.apiPublicKey)
    expect(stamp.scheme).toBe('SIGNATURE_SCHEME_TK_API_P256')
    expect(await verifyStampSignature(String(stamp.publicKey), String(stamp.signature), body)).toBe(true)
    expect(await verifyStampSignature(String(stamp.publicKey), String(stamp.signature), `${body} `)).toBe(
      false,
    )
  })

  it('refuses an invalid private key', () => {
    expect(() => createStamp({ privateKey: new Uint8Array(32), body: '{}' })).toThrow(TypeError)
    expect(() => createStamp({ privateKey: 'not hex', body: '{}' })).toThrow(TypeError)
  })

  it('does not consume the caller key buffer', () => {
    const key = newApiKey()
    const copy = Uint8Array.from(key.privateKey)
    createStamp({ privateKey: key.privateKey, body: '{}' })
    expect(key.privateKey).toEqual(copy)
  })
})
