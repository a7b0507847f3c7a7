import { randomUUID } from 'node:crypto'
import type { SignerContext } from '../../signer-context.ts'
import { findAccountBySignInMethod } from '../accounts/find-account.ts'
import { type MfaRequiredAnswer, requireSecondFactor } from '../mfa/require-second-factor.ts'
import { createDatabaseReplayStore } from '../stamps/create-database-replay-store.ts'
import type { JwtVerifier } from './create-jwt-verifier.ts'
import { finishSignIn, type SignInAnswer } from './finish-sign-in.ts'
import { JwtSignInError } from './jwt-sign-in-error.ts'

export type CompleteJwtAuthInput = {
  jwt: string
  /** The provider's id (JWT_PROVIDERS); without it the token's `iss` picks the provider. */
  authProvider?: string
  targetPublicKey: string
  expirationSeconds?: number
}

/**
 * `auth-jwt`: signs in with a custom JWT. Verifies it (`verifyJwt`: bound to `targetPublicKey` by
 * its nonce, or single use by its jti), spends it (recorded in the replay table, atomically, so a
 * token signs in once even under concurrent use), then finishes like every other
 * sign-in ({@link finishSignIn}): the user is keyed by the token's issuer and subject (auth method
 * `jwt`, `{issuer}|{subject}`), a first sign-in creates the account and its wallet, and a session
 * key is minted, encrypted to `targetPublicKey`. Nothing is written before the token checks out.
 * An existing account with a confirmed TOTP factor gets no session yet but MFA_REQUIRED
 * (docs/signer.md#mfa-required; wrong factor codes count against the user's own budget).
 *
 * Fails by rejecting with the JwtSignInError of `verifyJwt` (401, or 502 JWKS_UNAVAILABLE),
 * JWT_REPLAYED (401) for a token already used, the BundleError TARGET_KEY_INVALID, or on a
 * database or keystore error.
 */
export async function completeJwtAuth(
  context: SignerContext,
  verifyJwt: JwtVerifier,
  input: CompleteJwtAuthInput,
): Promise<SignInAnswer | MfaRequiredAnswer> {
  const verified = await verifyJwt({
    jwt: input.jwt,
    targetPublicKey: input.targetPublicKey,
    ...(input.authProvider === undefined ? {} : { authProvider: input.authProvider }),
  })
  const replays = createDatabaseReplayStore(context.db, context.now)
  if (!(await replays.markSeen(verified.onceKey, verified.onceUntilMs))) {
    throw new JwtSignInError('JWT_REPLAYED')
  }
  const method = { type: 'jwt' as const, identifier: `${verified.issuer}|${verified.subject}` }
  const expirationSeconds = input.expirationSeconds ?? context.config.signerSessionSeconds
  const account = await findAccountBySignInMethod(context.db, method)
  if (account !== undefined) {
    const required = await requireSecondFactor(context, {
      account,
      targetPublicKey: input.targetPublicKey,
      expirationSeconds,
    })
    if (required !== undefined) return required
  }
  return finishSignIn(context, {
    method,
    // A JWT user has no contact, so no pseudonymous id to keep: any free id will do.
    preferredOrganizationId: randomUUID(),
    targetPublicKey: input.targetPublicKey,
    expirationSeconds,
  })
}
