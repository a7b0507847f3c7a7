import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { createStamp } from '../stamps/create-stamp.ts'
import { verifyStamp } from '../stamps/verify-stamp.ts'
import { createSessionKey } from './create-session-key.ts'

describe('createSessionKey', () => {
  it('creates a valid P-256 pair whose public half is the compressed hex of the private half', () => {
    const key = createSessionKey()
    expect(key.privateKey).toHaveLength(32)
    expect(p256.utils.isValidSecretKey(key.privateKey)).toBe(true)
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/)
    expect(key.publicKey).toBe(bytesToHex(p256.getPublicKey(key.privateKey, true)))
  })

  it('creates a different key every time', () => {
    const keys = new Set(Array.from({ length: 20 }, () => createSessionKey().publicKey))
    expect(keys.size).toBe(20)
  })

  it('gives keys whose stamps the service verifies under the stored public key', async () => {
    const key = createSessionKey()
    const body = JSON.stringify({ timestampMs: '1000', organizationId: 'org-1' })
    const result = await verifyStamp(
      { stampHeader: createStamp({ privateKey: key.privateKey, body }), body: utf8ToBytes(body) },
      {
        now: () => 1_000,
        replayStore: { hasSeen: async () => false, markSeen: async () => true },
        findKey: async (publicKey) =>
          publicKey === key.publicKey ? { expiresAtMs: 900_000, revokedAtMs: null } : undefined,
      },
    )
    expect(result.ok).toBe(true)
  })
})
