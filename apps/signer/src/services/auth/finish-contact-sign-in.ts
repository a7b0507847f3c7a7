import type { SignerOtp } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { createAccount } from '../accounts/create-account.ts'
import { findWalletReservation } from '../accounts/reserve-wallet.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'

/**
 * The end of every e-mail or SMS sign-in, once its code or link was spent: creates the account at
 * the contact's first sign-in (taking `orgId`, the one `auth` answered, unless that id is taken,
 * and the user id and wallet `signup` reserved for this code, if it did) and mints a session key encrypted to `targetPublicKey`. `isNewUser` is true when this sign-in
 * created the account.
 *
 * Fails by rejecting on a database or keystore error, or with the BundleError TARGET_KEY_INVALID.
 */
export async function finishContactSignIn(
  context: SignerContext,
  input: { otp: SignerOtp; orgId: string; targetPublicKey: string; expirationSeconds?: number },
): Promise<{ credentialBundle: string; isNewUser: boolean; orgId: string }> {
  const { otp } = input
  const reservation = await findWalletReservation(context.db, otp.id)
  const { account, isCreated } = await createAccount(context.db, {
    masterKey: context.keyring.masterKey,
    contact: { channel: otp.channel, address: otp.contact },
    preferredOrganizationId: input.orgId,
    ...(reservation === undefined ? {} : { reservation }),
  })
  const { credentialBundle } = await mintCredentialBundle(context.db, {
    userId: account.userId,
    targetPublicKey: input.targetPublicKey,
    expirationSeconds:
      input.expirationSeconds ?? otp.expirationSeconds ?? context.config.signerSessionSeconds,
    nowMs: context.now(),
  })
  return { credentialBundle, isNewUser: isCreated, orgId: account.organizationId }
}
