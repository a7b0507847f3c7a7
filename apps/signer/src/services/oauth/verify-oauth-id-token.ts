import { AppError } from '@quicklinks/core/app-error'
import { errors, jwtVerify } from 'jose'
import type { DiscoveredOAuthProvider } from './oauth-directory.ts'

/** Provider and signer clocks may disagree this much about `exp`, `iat` and `nbf`. */
const clockToleranceSeconds = 30

/** Signatures by public keys only (a JWKS never holds a shared secret; `none` signs nothing). */
const allowedAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]

/** Who a verified id token names. */
export type VerifiedIdToken = {
  issuer: string
  subject: string
  /** Lower-cased; undefined when the token has none. */
  email: string | undefined
  /** Only a provider's explicit `email_verified: true` counts. */
  isEmailVerified: boolean
  nonce: string
  expiresAtMs: number
}

/**
 * Verifies an id token with jose against the provider's JWKS: signature, `iss` (the discovered
 * issuer), `aud` (this app's client id), `exp` at `nowMs`, a `sub`, and, when `nonce` is given,
 * that the token carries exactly it (the frame key's hash: a token for one key never signs in
 * another).
 *
 * Fails by throwing AppError UNAUTHORIZED (`details.reason` OAUTH_ID_TOKEN_INVALID) with a message
 * that names what was wrong, or UPSTREAM_FAILED when the provider's keys cannot be fetched.
 */
export async function verifyOAuthIdToken(
  provider: DiscoveredOAuthProvider,
  idToken: string,
  input: { nowMs: number; nonce?: string },
): Promise<VerifiedIdToken> {
  const refuse = (userMessage: string, cause?: unknown) =>
    new AppError('UNAUTHORIZED', {
      userMessage,
      details: { reason: 'OAUTH_ID_TOKEN_INVALID' },
      ...(cause === undefined ? {} : { cause }),
    })
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(idToken, provider.keySet, {
      issuer: provider.issuer,
      audience: provider.provider.clientId,
      algorithms: allowedAlgorithms,
      currentDate: new Date(input.nowMs),
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ['exp', 'sub', 'iat'],
    }))
  } catch (error) {
    if (error instanceof errors.JWTExpired)
      throw refuse('The sign-in token from the provider has expired.', error)
    if (error instanceof errors.JWTClaimValidationFailed) {
      throw refuse(`The sign-in token from the provider has a wrong ${error.claim} claim.`, error)
    }
    if (
      error instanceof errors.JOSEError &&
      !(error instanceof errors.JWKSTimeout) &&
      error.code !== 'ERR_JOSE_GENERIC'
    ) {
      throw refuse('The sign-in token from the provider is not valid.', error)
    }
    throw new AppError('UPSTREAM_FAILED', {
      message: `Reading the keys of ${provider.provider.id} failed: ${(error as Error).message}`,
      userMessage: 'The sign-in provider did not publish its keys. Try again shortly.',
      cause: error,
    })
  }
  const { sub, nonce, email, email_verified: emailVerified, exp } = payload
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 255) {
    throw refuse('The sign-in token from the provider has no usable subject.')
  }
  if (typeof nonce !== 'string') throw refuse('The sign-in token from the provider has no nonce.')
  if (input.nonce !== undefined && nonce !== input.nonce) {
    throw refuse(
      'The sign-in token from the provider was issued for another sign-in (its nonce does not match).',
    )
  }
  return {
    issuer: provider.issuer,
    subject: sub,
    email: typeof email === 'string' && email.length > 0 ? email.trim().toLowerCase() : undefined,
    isEmailVerified: emailVerified === true || emailVerified === 'true',
    nonce,
    expiresAtMs: typeof exp === 'number' ? exp * 1000 : input.nowMs,
  }
}
