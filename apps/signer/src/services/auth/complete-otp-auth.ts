import { AppError } from '@quicklinks/core/app-error'
import { eq } from 'drizzle-orm'
import { signerOtps } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { createAccount } from '../accounts/create-account.ts'
import { consumeOtp } from '../otp/consume-otp.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'

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
 * `targetPublicKey`. `isNewUser` is true when this sign-in (or its magic-link mail) created the
 * account. `orgId` is the account's: the one `auth` answered, unless that id was taken.
 *
 * Fails by rejecting with AppError OTP_INVALID / OTP_EXPIRED (401), UNAUTHORIZED when the code was
 * issued for another orgId, or on a database or keystore error.
 */
export async function completeOtpAuth(
  context: SignerContext,
  input: CompleteOtpAuthInput,
): Promise<{ credentialBundle: string; isNewUser: boolean; orgId: string }> {
  const { db, keyring } = context
  const [issued] = await db
    .select({ organizationId: signerOtps.organizationId })
    .from(signerOtps)
    .where(eq(signerOtps.id, input.otpId))
  if (issued !== undefined && issued.organizationId !== input.orgId) {
    throw new AppError('UNAUTHORIZED', {
      message: 'OTP was issued for another orgId',
      userMessage: 'This code was sent for another sign-in. Request a new code.',
    })
  }
  const otp = await consumeOtp(db, {
    otpId: input.otpId,
    code: input.otpCode,
    purpose: 'auth',
    otpHashSecret: keyring.otpHashSecret,
    nowMs: context.now(),
  })
  const { account, isCreated } = await createAccount(db, {
    masterKey: keyring.masterKey,
    contact: { channel: otp.channel, address: otp.contact },
    preferredOrganizationId: input.orgId,
  })
  const { credentialBundle } = await mintCredentialBundle(db, {
    userId: account.userId,
    targetPublicKey: input.targetPublicKey,
    expirationSeconds:
      input.expirationSeconds ?? otp.expirationSeconds ?? context.config.signerSessionSeconds,
    nowMs: context.now(),
  })
  return { credentialBundle, isNewUser: isCreated || otp.createdAccount, orgId: account.organizationId }
}
