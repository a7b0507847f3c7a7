import type { SignerOtp } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { findAccountByContact } from '../accounts/find-account.ts'
import { findWalletReservation } from '../accounts/reserve-wallet.ts'
import { type MfaRequiredAnswer, requireSecondFactor } from '../mfa/require-second-factor.ts'
import { finishSignIn, type SignInAnswer } from './finish-sign-in.ts'

export type { MfaRequiredAnswer }

/**
 * The end of every e-mail or SMS sign-in, once its code or link was spent: {@link finishSignIn}
 * for the code's contact, taking `orgId` (the one `auth` answered) and the user id and wallet
 * `signup` reserved for this code, if it did, for a new account. The session lasts what this call
 * asks, else what the code was asked with, else the configured default. When the contact's
 * account has a confirmed TOTP factor, no session is minted: the answer is MFA_REQUIRED with the
 * sealed pending sign-in (bound to the user, the contact and `targetPublicKey`; 5 minutes).
 *
 * Fails by rejecting on a database or keystore error, or with the BundleError TARGET_KEY_INVALID.
 */
export async function finishContactSignIn(
  context: SignerContext,
  input: { otp: SignerOtp; orgId: string; targetPublicKey: string; expirationSeconds?: number },
): Promise<SignInAnswer | MfaRequiredAnswer> {
  const { otp } = input
  const expirationSeconds =
    input.expirationSeconds ?? otp.expirationSeconds ?? context.config.signerSessionSeconds
  const contact = { channel: otp.channel, address: otp.contact }
  const account = await findAccountByContact(context.db, contact)
  if (account !== undefined) {
    const required = await requireSecondFactor(context, {
      account,
      contact,
      targetPublicKey: input.targetPublicKey,
      expirationSeconds,
    })
    if (required !== undefined) return required
  }
  const reservation = await findWalletReservation(context.db, otp.id)
  return finishSignIn(context, {
    method: { type: otp.channel, identifier: otp.contact },
    preferredOrganizationId: input.orgId,
    ...(reservation === undefined ? {} : { reservation }),
    targetPublicKey: input.targetPublicKey,
    expirationSeconds,
  })
}
