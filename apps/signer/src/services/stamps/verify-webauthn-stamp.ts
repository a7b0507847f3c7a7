import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { findUnstorableText } from '@quicklinks/core/find-unstorable-text'
import { webAuthnStampSchema } from '@quicklinks/protocol/signer-field-schemas'
import { type AuthenticatorTransport, verifyAuthenticationResponse } from '@simplewebauthn/server'
import { eq, sql } from 'drizzle-orm'
import { StampError, type StampErrorReason } from '../../crypto/stamps/stamp-error.ts'
import { signerAuthMethods } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { findPasskey, type PasskeyRecord } from '../passkeys/find-passkey.ts'
import { getPasskeyRelyingParty, passkeyTimeoutMs } from '../passkeys/passkey-relying-party.ts'
import { createDatabaseReplayStore } from './create-database-replay-store.ts'

/** Turnkey's header for a passkey stamp (any case). */
export const webAuthnStampHeaderName = 'X-Stamp-WebAuthn'

export function isWebAuthnStampHeader(name: string): boolean {
  return name.toLowerCase() === webAuthnStampHeaderName.toLowerCase()
}

/** A passkey stamp that checked out: the passkey, the parsed body and its hash. */
export type VerifiedWebAuthnStamp = {
  passkey: PasskeyRecord
  body: Record<string, unknown>
  bodyHash: string
  /** Whether the authenticator verified the user (the UV flag): a step-up needs it (docs/signer.md#step-up). */
  userVerified: boolean
}

const timestampPattern = /^\d{1,16}$/
/** A passkey prompt may stay open for the passkey timeout, so its body may be that old. */
const maxAgeMs = passkeyTimeoutMs
const maxFutureMs = 5_000

/**
 * Authenticates a body stamped by a passkey, as Turnkey's @turnkey/webauthn-stamper makes it: the
 * header value is JSON `{authenticatorData, clientDataJson, credentialId, signature}` (base64url),
 * an assertion whose challenge is the UTF-8 bytes of the body's lower-case hex SHA-256. The
 * passkey must be stored (`signer_auth_methods`), the assertion must verify with
 * @simplewebauthn/server for the app's origin and relying-party id, with a signature counter above
 * the stored one (when either is non-zero); the body must be a JSON object whose `timestampMs` is at
 * most 300 s old (the passkey timeout) and 5 s ahead, and must not have run before (the stamp replay
 * table). The stored counter is advanced last.
 *
 * `onUnknownCredential` makes the error for a credential nobody has (default KEY_UNKNOWN).
 * Throws StampError: STAMP_MALFORMED, KEY_UNKNOWN, SIGNATURE_INVALID (also a wrong origin, rpId
 * or a counter that went back), BODY_MALFORMED, TIMESTAMP_*, REPLAYED.
 */
export async function verifyWebAuthnStamp(
  context: SignerContext,
  input: { stampHeaderValue: string; body: string },
  options: { onUnknownCredential?: () => Error } = {},
): Promise<VerifiedWebAuthnStamp> {
  let stamp: ReturnType<typeof webAuthnStampSchema.parse>
  try {
    stamp = webAuthnStampSchema.parse(JSON.parse(input.stampHeaderValue))
  } catch {
    throw stampError('STAMP_MALFORMED', 'X-Stamp-WebAuthn is not the JSON of a WebAuthn assertion')
  }
  const passkey = await findPasskey(context.db, stamp.credentialId)
  if (passkey === undefined) {
    throw options.onUnknownCredential?.() ?? stampError('KEY_UNKNOWN', 'no such passkey')
  }

  const bodyBytes = utf8ToBytes(input.body)
  const bodyHash = bytesToHex(sha256(bodyBytes))
  const relyingParty = getPasskeyRelyingParty(context.config)
  let newCounter: number
  let userVerified: boolean
  try {
    const verification = await verifyAuthenticationResponse({
      response: {
        id: stamp.credentialId,
        rawId: stamp.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          authenticatorData: stamp.authenticatorData,
          clientDataJSON: stamp.clientDataJson,
          signature: stamp.signature,
        },
      },
      expectedChallenge: Buffer.from(bodyHash, 'utf8').toString('base64url'),
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.rpId,
      requireUserVerification: false,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.data.publicKey, 'base64url')),
        counter: passkey.data.counter,
        transports: passkey.data.transports as AuthenticatorTransport[],
      },
    })
    if (!verification.verified) throw new Error('assertion does not verify')
    newCounter = verification.authenticationInfo.newCounter
    userVerified = verification.authenticationInfo.userVerified
  } catch (error) {
    throw stampError(
      'SIGNATURE_INVALID',
      `passkey assertion refused: ${error instanceof Error ? error.message : String(error)}`,
    )
  }

  let body: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(input.body)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object')
    // As verifyStamp: text the database cannot store is refused here (docs/api.md#unstorable-input).
    if (findUnstorableText(parsed) !== undefined) throw new Error('unstorable text')
    body = parsed as Record<string, unknown>
  } catch {
    throw stampError('BODY_MALFORMED', 'body is not a UTF-8 JSON object')
  }
  const now = context.now()
  const rawTimestamp = body.timestampMs
  if (typeof rawTimestamp !== 'string' || !timestampPattern.test(rawTimestamp)) {
    throw stampError('TIMESTAMP_MISSING', 'timestampMs must be a string of epoch milliseconds')
  }
  const timestampMs = Number(rawTimestamp)
  if (now - timestampMs > maxAgeMs) {
    throw stampError('TIMESTAMP_STALE', `timestamp is ${now - timestampMs} ms old`)
  }
  if (timestampMs - now > maxFutureMs) {
    throw stampError('TIMESTAMP_FUTURE', `timestamp is ${timestampMs - now} ms ahead`)
  }
  const replayStore = createDatabaseReplayStore(context.db, context.now)
  const expiresAtMs = Math.max(now, timestampMs) + maxAgeMs + maxFutureMs
  if ((await replayStore.hasSeen(bodyHash)) || !(await replayStore.markSeen(bodyHash, expiresAtMs))) {
    throw stampError('REPLAYED', 'body already received', { bodyHash })
  }

  // Only forward: two assertions verified at once cannot move the counter back.
  await context.db
    .update(signerAuthMethods)
    .set({ data: sql`jsonb_set(${signerAuthMethods.data}, '{counter}', to_jsonb(${newCounter}::bigint))` })
    .where(
      sql`${eq(signerAuthMethods.id, passkey.rowId)} and coalesce((${signerAuthMethods.data}->>'counter')::bigint, 0) < ${newCounter}`,
    )
  return {
    passkey: { ...passkey, data: { ...passkey.data, counter: newCounter } },
    body,
    bodyHash,
    userVerified,
  }
}

/** A StampError with its reason in `details`, as verifyStampedRequest reports them. */
function stampError(
  reason: StampErrorReason,
  message: string,
  details: Record<string, unknown> = {},
): StampError {
  return new StampError(reason, message, { ...details, reason })
}
