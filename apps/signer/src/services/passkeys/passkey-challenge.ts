import { createHmac, randomBytes } from 'node:crypto'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { AppError } from '@quicklinks/core/app-error'
import { isConstantTimeEqual } from '../../crypto/bytes/is-constant-time-equal.ts'
import type { StampReplayStore } from '../../crypto/stamps/verify-stamp.ts'
import type { SignerContext } from '../../signer-context.ts'
import { deriveSignerSecret } from '../keyring/load-signer-keyring.ts'
import { passkeyTimeoutMs } from './passkey-relying-party.ts'

const nonceLength = 16
const expiryLength = 8
const macLength = 32

/** `details.reason` of a refused registration challenge. */
export const passkeyChallengeRefusedReason = 'PASSKEY_CHALLENGE_INVALID'

function challengeKey(context: SignerContext): Uint8Array {
  return deriveSignerSecret(context.keyring.masterKey, 'passkey-challenge/v1')
}

function mac(key: Uint8Array, payload: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', key).update(payload).digest())
}

/**
 * A registration challenge (`passkey-challenge`): 16 random bytes and an expiry (the passkey
 * timeout, 300 000 ms), MACed under a key derived from the master key, base64url. Stateless until
 * used: {@link consumePasskeyChallenge} records it, so each one registers one passkey at most.
 */
export function issuePasskeyChallenge(context: SignerContext): { challenge: string; expiresAtMs: number } {
  const expiresAtMs = context.now() + passkeyTimeoutMs
  const payload = new Uint8Array(nonceLength + expiryLength)
  payload.set(randomBytes(nonceLength), 0)
  new DataView(payload.buffer).setBigUint64(nonceLength, BigInt(expiresAtMs))
  const token = new Uint8Array(payload.length + macLength)
  token.set(payload, 0)
  token.set(mac(challengeKey(context), payload), payload.length)
  return { challenge: Buffer.from(token).toString('base64url'), expiresAtMs }
}

/**
 * Checks that `challenge` is one this signer issued, unexpired and never used before, and marks it
 * used in `replayStore` (the stamp replay table, createDatabaseReplayStore) under the SHA-256 of
 * `passkey-challenge:{challenge}`.
 *
 * Throws AppError UNAUTHORIZED with `details.reason` PASSKEY_CHALLENGE_INVALID otherwise.
 */
export async function consumePasskeyChallenge(
  context: SignerContext,
  challenge: string,
  replayStore: StampReplayStore,
): Promise<void> {
  const refuse = (message: string) =>
    new AppError('UNAUTHORIZED', {
      message,
      userMessage: 'This passkey request has expired or was already used. Try again.',
      details: { reason: passkeyChallengeRefusedReason },
    })
  const bytes = /^[A-Za-z0-9_-]{1,128}$/.test(challenge)
    ? new Uint8Array(Buffer.from(challenge, 'base64url'))
    : new Uint8Array()
  if (bytes.length !== nonceLength + expiryLength + macLength) throw refuse('malformed passkey challenge')
  const payload = bytes.subarray(0, nonceLength + expiryLength)
  if (!isConstantTimeEqual(mac(challengeKey(context), payload), bytes.subarray(payload.length))) {
    throw refuse('passkey challenge was not issued here')
  }
  const expiresAtMs = Number(new DataView(payload.buffer, payload.byteOffset).getBigUint64(nonceLength))
  if (expiresAtMs <= context.now()) throw refuse('passkey challenge expired')
  const key = bytesToHex(sha256(utf8ToBytes(`passkey-challenge:${challenge}`)))
  if (!(await replayStore.markSeen(key, expiresAtMs))) throw refuse('passkey challenge already used')
}
