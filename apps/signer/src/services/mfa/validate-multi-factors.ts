import { AppError } from '@quicklinks/core/app-error'
import type { SignerContext } from '../../signer-context.ts'
import type { Contact } from '../contacts/contact-schemas.ts'
import { completeOAuthLinksAfterSecondFactor } from '../oauth-links/oauth-link-for-code.ts'
import { createContactLockedError, findContactLock, recordCodeFailure } from '../otp/record-code-failure.ts'
import { sendLockNotice } from '../otp/send-lock-notice.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'
import { type MfaChallenge, openMfaChallenge, spendMfaChallenge } from './mfa-challenge.ts'
import { checkTotpCode, createTotpRefusedError, findTotpRows } from './totp-factors.ts'

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
 * given, refuses a locked contact, checks the code of one of the user's confirmed factors
 * (`checkTotpCode`: once per time step), spends the payload (one sign-in per payload) and mints
 * the session key encrypted to the frame key the payload names.
 *
 * A wrong code counts against the failure budget of the contact whose code started the sign-in
 * (record-code-failure.ts: 10 wrong in 24 h lock it for an hour, with a notice), like a wrong
 * e-mail or SMS code; after a social login or a custom JWT (no contact), against the user's own
 * budget ({@link getFailureBudget}, no notice). A replayed code is refused without counting.
 *
 * Fails by rejecting with UNAUTHORIZED (401) for a refused payload or another frame key,
 * VALIDATION_FAILED (422) when no code names a confirmed factor of the user, OTP_INVALID (401)
 * for a wrong or replayed code, RATE_LIMITED (429) while the contact is locked, or on a database
 * or keystore error.
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
  const contact = getFailureBudget(challenge)
  const nowMs = context.now()
  const lockedUntil = await findContactLock(context.db, contact, nowMs)
  if (lockedUntil !== undefined) throw createContactLockedError(lockedUntil, nowMs)

  const rows = await findTotpRows(
    context.db,
    challenge.userId,
    input.multiFactors.map((factor) => factor.multiFactorId),
  )
  const confirmed = rows.filter((row) => row.data.verified)
  const row = confirmed[0]
  const given = input.multiFactors.find((factor) => factor.multiFactorId === row?.id)
  if (row === undefined || given === undefined) {
    throw new AppError('VALIDATION_FAILED', {
      userMessage: 'Give the code of one of your authenticator apps.',
      field: 'multiFactors',
    })
  }
  const result = await checkTotpCode(context, row, given.multiFactorCode)
  if (result === 'wrong') {
    const failure = await recordCodeFailure(context.db, { contact, nowMs })
    if (failure.lockedUntil !== undefined) {
      // A user's own budget has no address to send the notice to.
      if (failure.isLockStarted && challenge.channel !== 'user') {
        await sendLockNotice(context, contact, failure.lockedUntil)
      }
      throw createContactLockedError(failure.lockedUntil, nowMs)
    }
  }
  if (result !== 'accepted') throw createTotpRefusedError(result)

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
 * The budget wrong codes of this sign-in count against (record-code-failure.ts): the contact whose
 * code started it, or for a sign-in without a contact the pseudo-contact `user:{userId}`, kept in
 * the same tables under the e-mail channel (no normalised e-mail address has that form, so it never
 * meets a real contact's budget).
 */
function getFailureBudget(challenge: MfaChallenge): Contact {
  if (challenge.channel === 'user') return { channel: 'email', address: `user:${challenge.userId}` }
  return { channel: challenge.channel, address: challenge.contact }
}
