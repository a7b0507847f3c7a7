import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { findUnstorableText } from '@quicklinks/core/find-unstorable-text'
import { decodeStampHeader } from './decode-stamp-header.ts'
import { StampError } from './stamp-error.ts'

/** What the key lookup returns: enough to decide whether the key may still sign. */
export type StampKeyRecord = {
  /** Epoch ms after which the key is no longer valid; `null` for keys that do not expire. */
  expiresAtMs: number | null
  /** Epoch ms at which the key was revoked; `null` while it is live. */
  revokedAtMs: number | null
}

/**
 * Remembers which request bodies already ran. Keyed by the lower-case hex SHA-256 of the raw body.
 * Entries may be dropped after `expiresAtMs`: by then the body's timestamp is stale anyway.
 */
export type StampReplayStore = {
  /** Whether this body hash was recorded and has not expired. */
  hasSeen(bodyHash: string): Promise<boolean>
  /**
   * Records the hash atomically (insert-if-absent). Returns `true` when this call recorded it,
   * `false` when it was already there; two concurrent requests with one body must not both get `true`.
   */
  markSeen(bodyHash: string, expiresAtMs: number): Promise<boolean>
}

/** Everything `verifyStamp` needs from outside, passed in so it stays pure and testable. */
export type VerifyStampDependencies<TKey extends StampKeyRecord> = {
  /** The service clock, epoch ms. */
  now: () => number
  replayStore: StampReplayStore
  /** Looks up a key by its compressed, lower-case hex public key; `undefined` when unknown. */
  findKey: (publicKey: string) => Promise<TKey | undefined>
}

export type VerifyStampOptions = {
  /** Oldest accepted `timestampMs`, relative to now. Default 60 000. */
  maxAgeMs?: number
  /** Furthest accepted `timestampMs` ahead of now. Default 5 000. */
  maxFutureMs?: number
  /**
   * When false, a body without `timestampMs` is accepted without freshness or replay checks. Only for
   * reads that the route binds to a live session key; a body that carries a timestamp is always checked.
   * Default true.
   */
  requireTimestamp?: boolean
}

/** A request whose stamp, freshness, key and uniqueness all checked out. */
export type VerifiedStamp<TKey extends StampKeyRecord> = {
  /** Compressed, lower-case hex public key that signed the body. */
  publicKey: string
  key: TKey
  /** The body parsed once, after its bytes were verified. */
  body: Record<string, unknown>
  /** Lower-case hex SHA-256 of the raw body: the replay key, and a natural activity fingerprint. */
  bodyHash: string
  /** The body's `timestampMs`, or `undefined` for an allowed timestamp-less read. */
  timestampMs: number | undefined
}

export type VerifyStampResult<TKey extends StampKeyRecord> =
  | { ok: true; value: VerifiedStamp<TKey> }
  | { ok: false; error: StampError }

const defaultMaxAgeMs = 60_000
const defaultMaxFutureMs = 5_000
const timestampPattern = /^\d{1,16}$/

/**
 * Authenticates a stamped request: the `X-Stamp` header must carry a P-256 signature (DER,
 * SHA-256; high-S accepted) over the exact body bytes as received, the body's `timestampMs` must
 * be at most `maxAgeMs` old and `maxFutureMs` ahead, the key must be known, unexpired and not
 * revoked, and a byte-identical body must not have run before.
 *
 * Why this order: the signature is checked over the raw bytes before the body is parsed (never
 * re-serialised), and before any storage is touched, so unauthenticated input costs one
 * verification; the body is marked seen last, so a refused request never burns its body.
 *
 * Fails by returning `{ok: false, error}` with a {@link StampError} whose `reason` is one of
 * STAMP_MISSING, STAMP_MALFORMED, STAMP_SCHEME_UNSUPPORTED, SIGNATURE_INVALID, BODY_MALFORMED,
 * TIMESTAMP_MISSING, TIMESTAMP_STALE, TIMESTAMP_FUTURE, KEY_UNKNOWN, KEY_EXPIRED, KEY_REVOKED or
 * REPLAYED (with `details.bodyHash`). Errors thrown by the injected store or lookup propagate.
 */
export async function verifyStamp<TKey extends StampKeyRecord>(
  request: { stampHeader: string | undefined; body: Uint8Array },
  dependencies: VerifyStampDependencies<TKey>,
  options: VerifyStampOptions = {},
): Promise<VerifyStampResult<TKey>> {
  const { maxAgeMs = defaultMaxAgeMs, maxFutureMs = defaultMaxFutureMs, requireTimestamp = true } = options
  const fail = (error: StampError): VerifyStampResult<TKey> => ({ ok: false, error })

  const decoded = decodeStampHeader(request.stampHeader)
  if (!decoded.ok) return fail(new StampError(decoded.reason, decoded.message))
  const { stamp } = decoded

  if (!isSignatureValid(stamp.signature, request.body, stamp.publicKeyBytes)) {
    return fail(new StampError('SIGNATURE_INVALID', 'signature does not verify over the body bytes'))
  }

  const body = parseBody(request.body)
  if (body === undefined) return fail(new StampError('BODY_MALFORMED', 'body is not a UTF-8 JSON object'))
  // The signed body is parsed here, not by the server's body parser: the input guard never saw
  // what its escapes decode to (docs/api.md#unstorable-input).
  const unstorable = findUnstorableText(body)
  if (unstorable !== undefined) {
    return fail(new StampError('BODY_MALFORMED', `body ${unstorable.path}: ${unstorable.reason}`))
  }

  const now = dependencies.now()
  const rawTimestamp = body.timestampMs
  let timestampMs: number | undefined
  if (rawTimestamp === undefined && !requireTimestamp) {
    timestampMs = undefined
  } else if (typeof rawTimestamp !== 'string' || !timestampPattern.test(rawTimestamp)) {
    return fail(new StampError('TIMESTAMP_MISSING', 'timestampMs must be a string of epoch milliseconds'))
  } else {
    timestampMs = Number(rawTimestamp)
    if (now - timestampMs > maxAgeMs) {
      return fail(new StampError('TIMESTAMP_STALE', `timestamp is ${now - timestampMs} ms old`))
    }
    if (timestampMs - now > maxFutureMs) {
      return fail(new StampError('TIMESTAMP_FUTURE', `timestamp is ${timestampMs - now} ms ahead`))
    }
  }

  const key = await dependencies.findKey(stamp.publicKey)
  if (key === undefined) return fail(new StampError('KEY_UNKNOWN', 'no such key'))
  if (key.revokedAtMs !== null && key.revokedAtMs <= now) {
    return fail(new StampError('KEY_REVOKED', 'key was revoked'))
  }
  if (key.expiresAtMs !== null && key.expiresAtMs <= now) {
    return fail(new StampError('KEY_EXPIRED', 'key has expired'))
  }

  const bodyHash = bytesToHex(sha256(request.body))
  if (timestampMs !== undefined) {
    const replayed = () => fail(new StampError('REPLAYED', 'body already received', { bodyHash }))
    // A replay is the same body under the same key: two keys (two tabs of one account) may send
    // byte-identical bodies in one millisecond (whoami), and neither is a replay of the other.
    const replayKey = `${stamp.publicKey}:${bodyHash}`
    if (await dependencies.replayStore.hasSeen(replayKey)) return replayed()
    // Keep the record until the body could no longer pass the freshness check, plus the clock slack.
    const expiresAtMs = Math.max(now, timestampMs) + maxAgeMs + maxFutureMs
    if (!(await dependencies.replayStore.markSeen(replayKey, expiresAtMs))) return replayed()
  }

  return { ok: true, value: { publicKey: stamp.publicKey, key, body, bodyHash, timestampMs } }
}

function isSignatureValid(signature: Uint8Array, body: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    // lowS: false — WebCrypto and Node emit high-S signatures about half the time.
    return p256.verify(signature, body, publicKey, { format: 'der', prehash: true, lowS: false })
  } catch {
    return false
  }
}

function parseBody(bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
    return parsed as Record<string, unknown>
  } catch {
    return undefined
  }
}
