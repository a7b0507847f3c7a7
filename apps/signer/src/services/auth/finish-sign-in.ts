import type { SignerWalletReservation } from '../../db/signer-schema.ts'
import type { SignerContext } from '../../signer-context.ts'
import { createAccount } from '../accounts/create-account.ts'
import type { SignInMethod } from '../accounts/find-account.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'

/** What every completed sign-in answers (`otp`, `magic-link`, `auth-jwt`). */
export type SignInAnswer = { credentialBundle: string; isNewUser: boolean; orgId: string }

/**
 * The end of every sign-in, once its proof was checked (a code or link spent, a JWT verified):
 * creates the account at the method's first sign-in (taking `preferredOrganizationId` unless that
 * id is taken, and the `reservation` `signup` made for the code, if any) and mints a session key
 * encrypted to `targetPublicKey` for `expirationSeconds`. `isNewUser` is true when this sign-in
 * created the account.
 *
 * Fails by rejecting on a database or keystore error, or with the BundleError TARGET_KEY_INVALID.
 */
export async function finishSignIn(
  context: SignerContext,
  input: {
    method: SignInMethod
    preferredOrganizationId: string
    reservation?: SignerWalletReservation
    targetPublicKey: string
    expirationSeconds: number
  },
): Promise<SignInAnswer> {
  const { account, isCreated } = await createAccount(context.db, {
    masterKey: context.keyring.masterKey,
    method: input.method,
    preferredOrganizationId: input.preferredOrganizationId,
    ...(input.reservation === undefined ? {} : { reservation: input.reservation }),
  })
  const { credentialBundle } = await mintCredentialBundle(context.db, {
    userId: account.userId,
    targetPublicKey: input.targetPublicKey,
    expirationSeconds: input.expirationSeconds,
    nowMs: context.now(),
  })
  return { credentialBundle, isNewUser: isCreated, orgId: account.organizationId }
}
