import { randomUUID } from 'node:crypto'
import { type Address, getAddress } from 'viem'
import type { SignerContext } from '../../signer-context.ts'
import { createAccount } from '../accounts/create-account.ts'
import { findPasskey } from '../passkeys/find-passkey.ts'
import type { PasskeyRegistration } from '../passkeys/passkey-schemas.ts'
import { passkeyTakenError, writePasskeyData } from '../passkeys/register-passkey.ts'
import { verifyPasskeyRegistration } from '../passkeys/verify-passkey-registration.ts'
import { mintCredentialBundle } from '../sessions/mint-credential-bundle.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'

export type PasskeySignupAnswer = {
  orgId: string
  /** No code is sent for a passkey: always ''. */
  otpId: string
  address: Address
  userId: string
  solanaAddress: string
  /** With a `targetPublicKey`: the first session, encrypted to it. */
  credentialBundle?: string
  isNewUser: boolean
}

/**
 * `signup` with `passkey {challenge, attestation}`: checks the new passkey
 * (verifyPasskeyRegistration: a server-issued, unused challenge; the app's origin and rpId),
 * creates an account whose one sign-in method is the passkey, and, when `targetPublicKey` is
 * given, mints its first session key encrypted to it, so sign-up needs a single passkey prompt.
 *
 * The optional `email` is not proven by a passkey, so it is not made the account's e-mail (that
 * would let anyone claim an address); the client uses it as the passkey's user name only.
 *
 * Fails with the refusals of verifyPasskeyRegistration (401), CONFLICT for a credential id already
 * registered, the BundleError TARGET_KEY_INVALID, or on a database or keystore error.
 */
export async function completePasskeySignup(
  context: SignerContext,
  input: {
    passkey: PasskeyRegistration
    authenticatorName?: string | undefined
    targetPublicKey?: string | undefined
    expirationSeconds?: number | undefined
  },
): Promise<PasskeySignupAnswer> {
  const verified = await verifyPasskeyRegistration(
    context,
    { ...input.passkey, name: input.authenticatorName },
    createDatabaseReplayStore(context.db, context.now),
  )
  if ((await findPasskey(context.db, verified.credentialId)) !== undefined) throw passkeyTakenError()
  const { account, isCreated } = await createAccount(context.db, {
    masterKey: context.keyring.masterKey,
    method: { type: 'passkey', identifier: verified.credentialId },
    preferredOrganizationId: randomUUID(),
  })
  if (!isCreated) throw passkeyTakenError()
  await writePasskeyData(context.db, verified)
  const session =
    input.targetPublicKey === undefined
      ? undefined
      : await mintCredentialBundle(context.db, {
          userId: account.userId,
          targetPublicKey: input.targetPublicKey,
          expirationSeconds: input.expirationSeconds ?? context.config.signerSessionSeconds,
          nowMs: context.now(),
        })
  return {
    orgId: account.organizationId,
    otpId: '',
    address: getAddress(account.evmAddress),
    userId: account.userId,
    solanaAddress: account.solanaAddress,
    ...(session === undefined ? {} : { credentialBundle: session.credentialBundle }),
    isNewUser: true,
  }
}
