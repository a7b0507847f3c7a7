import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64urlnopad } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { createStamp } from './create-stamp.ts'
import type { StampErrorReason } from './stamp-error.ts'
import { type StampKeyRecord, type StampReplayStore, verifyStamp } from './verify-stamp.ts'

const now = 1_760_000_000_000

type TestKey = StampKeyRecord & { userId: string }

function createMemoryReplayStore(clock: () => number): StampReplayStore & { size(): number } {
  const entries = new Map<string, number>()
  return {
    async hasSeen(bodyHash) {
      const expiresAtMs = entries.get(bodyHash)
      return expiresAtMs !== undefined && expiresAtMs > clock()
    },
    async markSeen(bodyHash, expiresAtMs) {
      const existing = entries.get(bodyHash)
      if (existing !== undefined && existing > clock()) return false
      entries.set(bodyHash, expiresAtMs)
      return true
    },
    size: () => entries.size,
  }
}

function setup(overrides: Partial<TestKey> = {}) {
  const privateKey = p256.utils.randomSecretKey()
  const publicKey = bytesToHex(p256.getPublicKey(privateKey, true))
  let clock = now
  const keys = new Map<string, TestKey>([
    [publicKey, { userId: 'user-1', expiresAtMs: now + 900_000, revokedAtMs: null, ...overrides }],
  ])
  const lookedUp: string[] = []
  const replayStore = createMemoryReplayStore(() => clock)
  const dependencies = {
    now: () => clock,
    replayStore,
    findKey: async (key: string) => {
      lookedUp.push(key)
      return keys.get(key)
    },
  }
  const bodyAt = (timestampMs: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', timestampMs: String(timestampMs), ...extra })
  const stamped = (body: string) => ({
    stampHeader: createStamp({ privateKey, body }),
    body: utf8ToBytes(body),
  })
  return {
    privateKey,
    publicKey,
    keys,
    lookedUp,
    replayStore,
    dependencies,
    bodyAt,
    stamped,
    setClock: (value: number) => {
      clock = value
    },
  }
}

async function reasonOf(result: Awaited<ReturnType<typeof verifyStamp>>): Promise<StampErrorReason | 'ok'> {
  return result.ok ? 'ok' : result.error.reason
}

function encodeStamp(stamp: Record<string, unknown>): string {
  return base64urlnopad.encode(utf8ToBytes(JSON.stringify(stamp)))
}

describe('verifyStamp', () => {
  it('accepts a fresh stamped body and returns the key record, parsed body and body hash', async () => {
    const { dependencies, bodyAt, stamped, publicKey, lookedUp } = setup()
    const body = bodyAt(now - 1_000, { organizationId: 'org-1' })
    const result = await verifyStamp(stamped(body), dependencies)
    if (!result.ok) throw result.error
    expect(result.value.publicKey).toBe(publicKey)
    expect(result.value.key.userId).toBe('user-1')
    expect(result.value.body.organizationId).toBe('org-1')
    expect(result.value.timestampMs).toBe(now - 1_000)
    expect(result.value.bodyHash).toMatch(/^[0-9a-f]{64}$/)
    expect(lookedUp).toEqual([publicKey])
  })

  it('rejects a stamp over a modified body', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    const original = stamped(bodyAt(now, { amount: '100' }))
    const tampered = { ...original, body: utf8ToBytes(bodyAt(now, { amount: '900' })) }
    expect(await reasonOf(await verifyStamp(tampered, dependencies))).toBe('SIGNATURE_INVALID')
  })

  it('rejects a body that was re-serialised, even when it parses to the same JSON', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    const body = bodyAt(now, { a: 1 })
    const request = stamped(body)
    const reformatted = utf8ToBytes(JSON.stringify(JSON.parse(body), null, 1))
    expect(await reasonOf(await verifyStamp({ ...request, body: reformatted }, dependencies))).toBe(
      'SIGNATURE_INVALID',
    )
  })

  it('rejects a stamp that names one key but was signed by another', async () => {
    const { dependencies, bodyAt, publicKey } = setup()
    const body = bodyAt(now)
    const otherStamp = createStamp({ privateKey: p256.utils.randomSecretKey(), body })
    const decoded = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(otherStamp)))
    const forged = encodeStamp({ ...decoded, publicKey })
    expect(
      await reasonOf(await verifyStamp({ stampHeader: forged, body: utf8ToBytes(body) }, dependencies)),
    ).toBe('SIGNATURE_INVALID')
  })

  it('accepts a high-S signature (WebCrypto and Node produce them)', async () => {
    const { dependencies, bodyAt, privateKey, publicKey } = setup()
    const body = bodyAt(now)
    const lowS = p256.Signature.fromBytes(
      p256.sign(utf8ToBytes(body), privateKey, { format: 'der', lowS: true }),
      'der',
    )
    const highS = new p256.Signature(lowS.r, p256.Point.CURVE().n - lowS.s)
    expect(highS.hasHighS()).toBe(true)
    const stampHeader = encodeStamp({
      publicKey,
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
      signature: bytesToHex(highS.toBytes('der')),
    })
    expect(await reasonOf(await verifyStamp({ stampHeader, body: utf8ToBytes(body) }, dependencies))).toBe(
      'ok',
    )
  })

  it('rejects a timestamp two minutes old', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    expect(await reasonOf(await verifyStamp(stamped(bodyAt(now - 120_000)), dependencies))).toBe(
      'TIMESTAMP_STALE',
    )
  })

  it('accepts exactly 60 s old and 5 s ahead, and rejects one millisecond beyond either', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    expect(await reasonOf(await verifyStamp(stamped(bodyAt(now - 60_000)), dependencies))).toBe('ok')
    expect(await reasonOf(await verifyStamp(stamped(bodyAt(now - 60_001)), dependencies))).toBe(
      'TIMESTAMP_STALE',
    )
    expect(await reasonOf(await verifyStamp(stamped(bodyAt(now + 5_000)), dependencies))).toBe('ok')
    expect(await reasonOf(await verifyStamp(stamped(bodyAt(now + 5_001)), dependencies))).toBe(
      'TIMESTAMP_FUTURE',
    )
  })

  it('rejects a timestamp in the future', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    expect(await reasonOf(await verifyStamp(stamped(bodyAt(now + 60_000)), dependencies))).toBe(
      'TIMESTAMP_FUTURE',
    )
  })

  it('rejects a byte-identical body the second time and names its hash', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    const request = stamped(bodyAt(now))
    const first = await verifyStamp(request, dependencies)
    const second = await verifyStamp(request, dependencies)
    expect(first.ok).toBe(true)
    if (second.ok || !first.ok) throw new Error('expected the replay to be refused')
    expect(second.error.reason).toBe('REPLAYED')
    expect(second.error.code).toBe('CONFLICT')
    expect(second.error.details).toEqual({ bodyHash: first.value.bodyHash })
  })

  it('accepts the same body from two keys (two tabs of one account in one millisecond), each once', async () => {
    const { dependencies, bodyAt, stamped, keys } = setup()
    const otherPrivateKey = p256.utils.randomSecretKey()
    const otherPublicKey = bytesToHex(p256.getPublicKey(otherPrivateKey, true))
    keys.set(otherPublicKey, { userId: 'user-1', expiresAtMs: now + 900_000, revokedAtMs: null })
    const body = bodyAt(now, { organizationId: 'org-1' })
    const fromOther = {
      stampHeader: createStamp({ privateKey: otherPrivateKey, body }),
      body: utf8ToBytes(body),
    }
    expect((await verifyStamp(stamped(body), dependencies)).ok).toBe(true)
    expect((await verifyStamp(fromOther, dependencies)).ok).toBe(true)
    const replay = await verifyStamp(fromOther, dependencies)
    expect(replay.ok ? 'ok' : replay.error.reason).toBe('REPLAYED')
  })

  it('refuses a replay even with a fresh signature over the same body (signatures are not the replay key)', async () => {
    const { dependencies, bodyAt, privateKey, publicKey } = setup()
    const body = bodyAt(now)
    const first = { stampHeader: createStamp({ privateKey, body }), body: utf8ToBytes(body) }
    expect(await reasonOf(await verifyStamp(first, dependencies))).toBe('ok')
    const lowS = p256.Signature.fromBytes(p256.sign(utf8ToBytes(body), privateKey, { format: 'der' }), 'der')
    const malleated = encodeStamp({
      publicKey,
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
      signature: bytesToHex(new p256.Signature(lowS.r, p256.Point.CURVE().n - lowS.s).toBytes('der')),
    })
    expect(await reasonOf(await verifyStamp({ ...first, stampHeader: malleated }, dependencies))).toBe(
      'REPLAYED',
    )
  })

  it('lets only one of two concurrent identical requests through when the store insert is atomic', async () => {
    const { dependencies, bodyAt, stamped } = setup()
    const request = stamped(bodyAt(now))
    const results = await Promise.all([
      verifyStamp(request, dependencies),
      verifyStamp(request, dependencies),
    ])
    expect(results.map((result) => (result.ok ? 'ok' : result.error.reason)).sort()).toEqual([
      'REPLAYED',
      'ok',
    ])
  })

  it('keeps the replay record at least until the body would be stale anyway', async () => {
    const { dependencies, bodyAt, stamped, setClock } = setup()
    const marks: number[] = []
    const store = dependencies.replayStore
    const request = stamped(bodyAt(now))
    await verifyStamp(request, {
      ...dependencies,
      replayStore: {
        hasSeen: (hash) => store.hasSeen(hash),
        markSeen: (hash, expiresAtMs) => {
          marks.push(expiresAtMs)
          return store.markSeen(hash, expiresAtMs)
        },
      },
    })
    expect(marks[0]).toBeGreaterThanOrEqual(now + 60_000)
    setClock(now + 60_000)
    expect(await reasonOf(await verifyStamp(request, dependencies))).toBe('REPLAYED')
    setClock(now + 60_001)
    expect(await reasonOf(await verifyStamp(request, dependencies))).toBe('TIMESTAMP_STALE')
  })

  it('does not burn a body that was refused for another reason', async () => {
    const { dependencies, bodyAt, stamped, keys, publicKey, replayStore } = setup()
    const saved = keys.get(publicKey)
    keys.delete(publicKey)
    const request = stamped(bodyAt(now))
    expect(await reasonOf(await verifyStamp(request, dependencies))).toBe('KEY_UNKNOWN')
    expect(replayStore.size()).toBe(0)
    if (saved) keys.set(publicKey, saved)
    expect(await reasonOf(await verifyStamp(request, dependencies))).toBe('ok')
  })

  it('rejects unknown, expired and revoked keys with distinct reasons', async () => {
    const unknown = setup()
    unknown.keys.clear()
    expect(
      await reasonOf(await verifyStamp(unknown.stamped(unknown.bodyAt(now)), unknown.dependencies)),
    ).toBe('KEY_UNKNOWN')
    const expired = setup({ expiresAtMs: now })
    expect(
      await reasonOf(await verifyStamp(expired.stamped(expired.bodyAt(now)), expired.dependencies)),
    ).toBe('KEY_EXPIRED')
    const revoked = setup({ revokedAtMs: now - 1 })
    expect(
      await reasonOf(await verifyStamp(revoked.stamped(revoked.bodyAt(now)), revoked.dependencies)),
    ).toBe('KEY_REVOKED')
  })

  it('never looks up keys or touches the replay store for a bad signature', async () => {
    const { dependencies, bodyAt, stamped, lookedUp, replayStore } = setup()
    const request = stamped(bodyAt(now))
    const tampered = { ...request, body: utf8ToBytes(bodyAt(now + 1)) }
    await verifyStamp(tampered, dependencies)
    expect(lookedUp).toEqual([])
    expect(replayStore.size()).toBe(0)
  })

  it.each([
    ['missing header', undefined, 'STAMP_MISSING'],
    ['empty header', '', 'STAMP_MISSING'],
    ['padding', 'padded=', 'STAMP_MALFORMED'],
    ['standard base64 alphabet', 'ab+/', 'STAMP_MALFORMED'],
    ['not JSON', base64urlnopad.encode(utf8ToBytes('hello')), 'STAMP_MALFORMED'],
    ['JSON array', base64urlnopad.encode(utf8ToBytes('[]')), 'STAMP_MALFORMED'],
    ['overlong', 'A'.repeat(4096), 'STAMP_MALFORMED'],
  ] as const)('rejects a header with %s', async (_label, stampHeader, reason) => {
    const { dependencies, bodyAt } = setup()
    expect(
      await reasonOf(await verifyStamp({ stampHeader, body: utf8ToBytes(bodyAt(now)) }, dependencies)),
    ).toBe(reason)
  })

  it('rejects bad fields inside a well-encoded stamp', async () => {
    const { dependencies, bodyAt, stamped, privateKey } = setup()
    const request = stamped(bodyAt(now))
    const fields = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(request.stampHeader)))
    const uncompressed = bytesToHex(p256.getPublicKey(privateKey, false))
    const offCurve = `02${'ff'.repeat(32)}`
    const cases: Array<[Record<string, unknown>, StampErrorReason]> = [
      [{ ...fields, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' }, 'STAMP_SCHEME_UNSUPPORTED'],
      [{ ...fields, publicKey: uncompressed }, 'STAMP_MALFORMED'],
      [{ ...fields, publicKey: offCurve }, 'STAMP_MALFORMED'],
      [{ ...fields, signature: 'zz' }, 'STAMP_MALFORMED'],
      [{ ...fields, signature: 42 }, 'STAMP_MALFORMED'],
      [{ publicKey: fields.publicKey, scheme: fields.scheme }, 'STAMP_MALFORMED'],
      // Raw r||s is not DER; a DER signature with a needless leading zero is not canonical.
      [
        {
          ...fields,
          signature: bytesToHex(
            p256.Signature.fromBytes(hexToBytes(fields.signature), 'der').toBytes('compact'),
          ),
        },
        'SIGNATURE_INVALID',
      ],
    ]
    for (const [stamp, reason] of cases) {
      const result = await verifyStamp({ stampHeader: encodeStamp(stamp), body: request.body }, dependencies)
      expect([JSON.stringify(stamp), await reasonOf(result)]).toEqual([JSON.stringify(stamp), reason])
    }
  })

  it('rejects a validly signed body that is not a JSON object, or lacks a string timestampMs', async () => {
    const { dependencies, stamped, bodyAt } = setup()
    expect(await reasonOf(await verifyStamp(stamped('not json'), dependencies))).toBe('BODY_MALFORMED')
    expect(await reasonOf(await verifyStamp(stamped('[1,2]'), dependencies))).toBe('BODY_MALFORMED')
    expect(await reasonOf(await verifyStamp(stamped('{"type":"x"}'), dependencies))).toBe('TIMESTAMP_MISSING')
    expect(
      await reasonOf(await verifyStamp(stamped(JSON.stringify({ timestampMs: now })), dependencies)),
    ).toBe('TIMESTAMP_MISSING')
    expect(
      await reasonOf(await verifyStamp(stamped(bodyAt(now).replace(/"\d+"/, '"12e3"')), dependencies)),
    ).toBe('TIMESTAMP_MISSING')
  })

  it('lets a timestamp-less read through only when the caller allows it, without recording it', async () => {
    const { dependencies, stamped, replayStore } = setup()
    const read = stamped('{"organizationId":"org-1"}')
    expect(await reasonOf(await verifyStamp(read, dependencies))).toBe('TIMESTAMP_MISSING')
    const allowed = await verifyStamp(read, dependencies, { requireTimestamp: false })
    expect(allowed.ok && allowed.value.timestampMs).toBe(undefined)
    expect(await reasonOf(await verifyStamp(read, dependencies, { requireTimestamp: false }))).toBe('ok')
    expect(replayStore.size()).toBe(0)
  })

  it('still checks freshness of a timestamp that is present when timestamps are optional', async () => {
    const { dependencies, stamped, bodyAt } = setup()
    const stale = stamped(bodyAt(now - 120_000))
    expect(await reasonOf(await verifyStamp(stale, dependencies, { requireTimestamp: false }))).toBe(
      'TIMESTAMP_STALE',
    )
  })
})
