import { AppError } from '@quicklinks/core/app-error'
import { lockForTransaction } from '../../db/lock-for-transaction.ts'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { completeOAuthLinksAfterSecondFactor } from '../oauth-links/oauth-link-for-code.ts'
import { createContactLockedError, findContactLock, recordCodeFailure } from '../otp/record-code-failure.ts'
import { sendLockNotice } from '../otp/send-lock-notice.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'
import { type MfaChallenge, openMfaChallenge, spendMfaChallenge } from './mfa-challenge.ts'
import { checkTotpCode, createTotpRefusedError, findTotpRows } from './totp-factors.ts'
import {
  countChallengeFailures,
  createTotpChallengeEndedError,
  findTotpRefusal,
  maxTotpFailuresPerChallenge,
  recordTotpFailure,
} from './totp-failure-budget.ts'

export type MultiFactorCode = { multiFactorId: string; multiFactorCode: string }

/** What `auth-validate-multi-factors` answers: `payload.credentialBundle` (docs/signer.md#auth-validate-multi-factors), and the orgId. */
export type ValidateMultiFactorsAnswer = {
  payload: { credentialBundle: string }
  orgId: string
  isNewUser: boolean
}

/**
 * Completes a sign-in that waits for its second factor: opens the `encryptedPayload` (expired,
 * altered or foreign payloads are refused), checks it was made for `targetPublicKey` when one is
 * given, then, under a per-user lock so concurrent guesses are counted one by one: refuses a
 * challenge that had its three wrong codes, a user whose second-factor step is locked or spent
 * for the day (totp-failure-budget.ts), and a locked contact; checks the code of one of the
 * user's confirmed factors (`checkTotpCode`: once per time step); spends the payload (one sign-in
 * per payload) and mints the session key encrypted to the frame key the payload names.
 *
 * A wrong code is recorded for the user and the challenge (three end the challenge, every third
 * locks the step for 15 minutes doubling each time, ten in 24 hours refuse it until the day has
 * passed, right code included), and also counts against the failure budget of the contact whose
 * code started the sign-in (record-code-failure.ts, with its notice), or after a social login or
 * a custom JWT against the user's own ({@link getFailureBudget}, no notice). A replayed code is
 * refused without counting.
 *
 * Fails by rejecting with UNAUTHORIZED (401) for a refused or ended payload or another frame key,
 * VALIDATION_FAILED (422) when no code names a confirmed factor of the user, OTP_INVALID (401)
 * for a wrong or replayed code, RATE_LIMITED (429, `details.reason` TOTP_LOCKED or
 * TOTP_DAILY_CAP, or the contact's lock), or on a database or keystore error.
 */
export async function validateMultiFactors(
  context: SignerContext,
  input: { encryptedPayload: string; multiFactors: MultiFactorCode[]; targetPublicKey?: string },
): Promise<ValidateMultiFactorsAnswer> {
  const challenge = await openMfaChallenge(context, input.encryptedPayload)
  if (input.targetPublicKey !== undefined && input.targetPublicKey !== challenge.targetPublicKey) {
    throw new AppError('UNAUTHORIZED', {
      message: 'MFA challenge used with another frame key',
      userMessage: 'This sign-in was started in another browser. Sign in again here.',
      details: { reason: 'MFA_CHALLENGE_REFUSED' },
    })
  }
  // Refusals are returned, not thrown, inside the transaction: the failures it records must commit.
  const refusal = await context.db.transaction(async (tx) => {
    await lockForTransaction(tx, `signer-totp:${challenge.userId}`)
    return checkSecondFactor({ ...context, db: tx }, challenge, input.multiFactors)
  })
  if (refusal !== undefined) throw refusal

  await spendMfaChallenge(context, challenge)
  // An account-linking code entered before this factor links its provider only now.
  await completeOAuthLinksAfterSecondFactor(context, {
    userId: challenge.userId,
    targetPublicKey: challenge.targetPublicKey,
  })
  const { credentialBundle } = await mintCredentialBundle(context.db, {
    userId: challenge.userId,
    targetPublicKey: challenge.targetPublicKey,
    expirationSeconds: challenge.expirationSeconds,
    nowMs: context.now(),
  })
  return { payload: { credentialBundle }, orgId: challenge.organizationId, isNewUser: false }
}

/**
 * The checks of {@link validateMultiFactors} in order, with `context.db` the transaction holding
 * the user's lock: undefined when the code is accepted (its step recorded), else the error to
 * answer. Rejects only on a database or keystore error.
 */
async function checkSecondFactor(
  context: SignerContext,
  challenge: MfaChallenge,
  multiFactors: MultiFactorCode[],
): Promise<AppError | undefined> {
  const { db } = context
  const nowMs = context.now()
  const challengeFailures = await countChallengeFailures(db, challenge.id)
  if (challengeFailures >= maxTotpFailuresPerChallenge) return createTotpChallengeEndedError()
  const refused = await findTotpRefusal(db, challenge.userId, nowMs)
  if (refused !== undefined) return refused
  const contact = getFailureBudget(challenge)
  const lockedUntil = await findContactLock(db, contact, nowMs)
  if (lockedUntil !== undefined) return createContactLockedError(lockedUntil, nowMs)

  const rows = await findTotpRows(
    db,
    challenge.userId,
    multiFactors.map((factor) => factor.multiFactorId),
  )
  const row = rows.filter((candidate) => candidate.data.verified)[0]
  const given = multiFactors.find((factor) => factor.multiFactorId === row?.id)
  if (row === undefined || given === undefined) {
    return new AppError('VALIDATION_FAILED', {
      userMessage: 'Give the code of one of your authenticator apps.',
      field: 'multiFactors',
    })
  }
  const result = await checkTotpCode(context, row, given.multiFactorCode)
  if (result === 'accepted') return undefined
  if (result === 'replayed') return createTotpRefusedError(result)

  await recordTotpFailure(db, { userId: challenge.userId, challengeId: challenge.id, nowMs })
  const failure = await recordCodeFailure(db, { contact, nowMs })
  if (failure.lockedUntil !== undefined) {
    // A user's own budget has no address to send the notice to.
    if (failure.isLockStarted && challenge.channel !== 'user') {
      await sendLockNotice(context, contact, failure.lockedUntil)
    }
    return createContactLockedError(failure.lockedUntil, nowMs)
  }
  const refusedNow = await findTotpRefusal(db, challenge.userId, nowMs)
  if (refusedNow !== undefined) return refusedNow
  return challengeFailures + 1 >= maxTotpFailuresPerChallenge
    ? createTotpChallengeEndedError()
    : createTotpRefusedError(result)
}

/**
 * The budget wrong codes of this sign-in count against (record-code-failure.ts): the contact whose
 * code started it, or for a sign-in without a contact the pseudo-contact `user:{userId}`, kept in
 * the same tables under the e-mail channel (no normalised e-mail address has that form, so it never
 * meets a real contact's budget).
 */
function getFailureBudget(challenge: MfaChallenge): Contact {
  if (challenge.channel === 'user') return { channel: 'email', address: `user:${challenge.userId}` }
  return { channel: challenge.channel, address: challenge.contact }
}
