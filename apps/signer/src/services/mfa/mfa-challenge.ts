import { AppError } from '@quicklinks/core/app-error'
import { z } from 'zod'
import { openSecret } from '../../crypto/keystore/open-secret.ts'
import { sealSecret } from '../../crypto/keystore/seal-secret.ts'
import type { SignerContext } from '../../signer-context.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'

/** How long a sign-in waits for its second factor after the e-mail or SMS code was right. */
export const mfaChallengeLifetimeMs = 5 * 60_000

// The sealed record's binding (seal-secret.ts): not a user's secret, so a service owner id.
const challengeOwner = 'signer-service'
const challengePurpose = 'mfa-sign-in-challenge'

const challengeSchema = z.object({
  v: z.literal(1),
  /** Random: what marks the challenge spent (in the stamp replay table, `mfa-challenge:{id}`). */
  id: z.uuid(),
  userId: z.string(),
  organizationId: z.string(),
  /**
   * The contact whose code was right: wrong second-factor codes count against its budget. A
   * sign-in without a contact (a social login, a custom JWT) has `user` and the user id: its
   * wrong codes count against the user's budget (validate-multi-factors.ts).
   */
  channel: z.enum(['email', 'sms', 'user']),
  contact: z.string(),
  /** The auth frame's key the session will be encrypted to, as sent with the code. */
  targetPublicKey: z.string(),
  expirationSeconds: z.number().int(),
  expiresAtMs: z.number().int(),
})

/** A sign-in that proved its first factor and waits for its second (`encryptedPayload`). */
export type MfaChallenge = z.infer<typeof challengeSchema>

export const mfaChallengeRefusedMessage = 'This sign-in has expired or was already completed. Sign in again.'

/**
 * Seals a pending sign-in into the `encryptedPayload` the client hands back with its factor code:
 * AES-256-GCM under the master key (seal-secret.ts, purpose `mfa-sign-in-challenge`), so the
 * client can neither read nor alter who it is for, the frame key or the expiry. Stateless until
 * it is spent. Rejects only on a keystore error.
 */
export async function sealMfaChallenge(
  context: SignerContext,
  input: Omit<MfaChallenge, 'v' | 'id' | 'expiresAtMs'>,
): Promise<string> {
  const challenge: MfaChallenge = {
    v: 1,
    id: crypto.randomUUID(),
    ...input,
    expiresAtMs: context.now() + mfaChallengeLifetimeMs,
  }
  return sealSecret({
    keyEncryptionKey: context.keyring.masterKey,
    userId: challengeOwner,
    purpose: challengePurpose,
    plaintext: new TextEncoder().encode(JSON.stringify(challenge)),
  })
}

/**
 * Opens an `encryptedPayload` and checks it has not expired. Does not spend it.
 *
 * Fails by rejecting with UNAUTHORIZED (401, {@link mfaChallengeRefusedMessage}) for a payload that
 * is malformed, altered, sealed under another key or expired.
 */
export async function openMfaChallenge(
  context: SignerContext,
  encryptedPayload: string,
): Promise<MfaChallenge> {
  let challenge: MfaChallenge
  try {
    const bytes = await openSecret({
      keyEncryptionKey: context.keyring.masterKey,
      userId: challengeOwner,
      purpose: challengePurpose,
      sealed: encryptedPayload,
    })
    challenge = challengeSchema.parse(JSON.parse(new TextDecoder().decode(bytes)))
  } catch (error) {
    throw createChallengeRefusedError('malformed or not ours', error)
  }
  if (challenge.expiresAtMs <= context.now()) throw createChallengeRefusedError('expired')
  return challenge
}

/**
 * Spends a challenge: records its id until it expires, atomically, so it completes one sign-in
 * only. Fails by rejecting with UNAUTHORIZED when it was spent already, or on a database error.
 */
export async function spendMfaChallenge(context: SignerContext, challenge: MfaChallenge): Promise<void> {
  const store = createDatabaseReplayStore(context.db, context.now)
  const isFirst = await store.markSeen(`mfa-challenge:${challenge.id}`, challenge.expiresAtMs)
  if (!isFirst) throw createChallengeRefusedError('already spent')
}

function createChallengeRefusedError(reason: string, cause?: unknown): AppError {
  return new AppError('UNAUTHORIZED', {
    message: `MFA challenge refused: ${reason}`,
    userMessage: mfaChallengeRefusedMessage,
    details: { reason: 'MFA_CHALLENGE_REFUSED' },
    ...(cause === undefined ? {} : { cause }),
  })
}
