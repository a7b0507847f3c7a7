import { AppError } from '@quicklinks/core/app-error'
import { eq } from 'drizzle-orm'
import { signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { findAccountByContact } from '../accounts/find-account.ts'
import { listTotpFactors } from '../mfa/totp-factors.ts'
import { completeOAuthLinkForCode, findOAuthLinkForCode } from '../oauth-links/oauth-link-for-code.ts'
import { consumeOtp } from '../otp/consume-otp.ts'
import { finishContactSignIn, type MfaRequiredAnswer } from './finish-contact-sign-in.ts'
import type { SignInAnswer } from './finish-sign-in.ts'

export type CompleteOtpAuthInput = {
  orgId: string
  otpId: string
  otpCode: string
  targetPublicKey: string
  expirationSeconds?: number
}

/**
 * Finishes an e-mail or SMS sign-in with the code: spends it (see `consumeOtp`), creates the
 * account at a contact's first sign-in, and returns a fresh session key encrypted to
 * `targetPublicKey`. `isNewUser` is true when this sign-in created the account. `orgId` is the
 * account's: the one `auth` answered, unless that id was taken.
 * With a confirmed second factor on the account it answers MFA_REQUIRED instead (finish-contact-sign-in.ts).
 * An account-linking code (a social login whose e-mail has an account, docs/signer.md#oauth-callback)
 * must come with the frame key of its provider flow, and links the identity the callback kept for it
 * before the session is minted (after the second factor, for an account with one).
 *
 * Fails by rejecting with AppError OTP_INVALID / OTP_EXPIRED (401), UNAUTHORIZED when the code was
 * issued for another orgId, RATE_LIMITED (429) while the contact is locked after too many wrong
 * codes, or on a database or keystore error.
 */
export async function completeOtpAuth(
  context: SignerContext,
  input: CompleteOtpAuthInput,
): Promise<SignInAnswer | MfaRequiredAnswer> {
  const [issued] = await context.db
    .select({ organizationId: signerOtps.organizationId })
    .from(signerOtps)
    .where(eq(signerOtps.id, input.otpId))
  if (issued !== undefined && issued.organizationId !== input.orgId) {
    throw new AppError('UNAUTHORIZED', {
      message: 'OTP was issued for another orgId',
      userMessage: 'This code was sent for another sign-in. Request a new code.',
    })
  }
  const link = await findOAuthLinkForCode(context.db, {
    otpId: input.otpId,
    targetPublicKey: input.targetPublicKey,
  })
  const otp = await consumeOtp(context, {
    otpId: input.otpId,
    purpose: 'auth',
    secret: { kind: 'code', code: input.otpCode },
  })
  if (link !== undefined && (await listTotpFactors(context.db, link.userId)).length === 0) {
    const account = await findAccountByContact(context.db, { channel: otp.channel, address: otp.contact })
    await completeOAuthLinkForCode(context, { otpId: otp.id, userId: account?.userId })
  }
  return finishContactSignIn(context, {
    otp,
    orgId: input.orgId,
    targetPublicKey: input.targetPublicKey,
    ...(input.expirationSeconds === undefined ? {} : { expirationSeconds: input.expirationSeconds }),
  })
}
