import { AppError, type ErrorCode } from '@quicklinks/core/app-error'

/**
 * Why `auth-jwt` refused a token. Each reason maps to the HTTP-level code the route replies with
 * and to a message safe to show (some are completed with the token's own issuer or provider id);
 * the reason travels in `details.reason`.
 */
export const jwtSignInErrorReasons = {
  JWT_MALFORMED: { code: 'UNAUTHORIZED', userMessage: 'Invalid token specified.' },
  JWT_PROVIDER_UNKNOWN: { code: 'UNAUTHORIZED', userMessage: 'No auth provider found with this id.' },
  JWT_ISSUER_UNKNOWN: { code: 'UNAUTHORIZED', userMessage: 'The token’s issuer is not accepted here.' },
  JWT_AUDIENCE_INVALID: {
    code: 'UNAUTHORIZED',
    userMessage: 'The token was issued for another application (its aud claim is not this one’s).',
  },
  JWT_EXPIRED: {
    code: 'UNAUTHORIZED',
    userMessage: 'The token has expired. Get a new one from your sign-in provider.',
  },
  JWT_NOT_YET_VALID: { code: 'UNAUTHORIZED', userMessage: 'The token is not valid yet (its nbf is ahead).' },
  JWT_SIGNATURE_INVALID: {
    code: 'UNAUTHORIZED',
    userMessage: 'The token’s signature does not match any key its issuer publishes.',
  },
  JWT_CLAIMS_INVALID: { code: 'UNAUTHORIZED', userMessage: 'The token’s claims are not valid.' },
  JWT_NONCE_MISSING: {
    code: 'UNAUTHORIZED',
    userMessage:
      'The token has no nonce claim. Mint it with nonce = the hex SHA-256 of this sign-in’s targetPublicKey, so it works for this sign-in only.',
  },
  JWT_NONCE_MISMATCH: {
    code: 'UNAUTHORIZED',
    userMessage: 'The token was minted for another sign-in (its nonce is not that of this targetPublicKey).',
  },
  JWT_JTI_MISSING: {
    code: 'UNAUTHORIZED',
    userMessage: 'The token has no jti claim. This provider’s tokens are single use: each needs its own jti.',
  },
  JWT_TOO_OLD: {
    code: 'UNAUTHORIZED',
    userMessage: 'The token was issued too long ago (its iat). Get a new one from your sign-in provider.',
  },
  JWT_REPLAYED: {
    code: 'UNAUTHORIZED',
    userMessage: 'This token was already used to sign in. Get a new one from your sign-in provider.',
  },
  JWKS_UNAVAILABLE: {
    code: 'UPSTREAM_FAILED',
    userMessage: 'The token’s issuer did not publish its keys. Try again shortly.',
  },
} as const satisfies Record<string, { code: ErrorCode; userMessage: string }>

export type JwtSignInErrorReason = keyof typeof jwtSignInErrorReasons

/** A refused `auth-jwt` token; `reason` names why, `userMessage` what the client shows. */
export class JwtSignInError extends AppError {
  override readonly name: string = 'JwtSignInError'
  readonly reason: JwtSignInErrorReason

  constructor(
    reason: JwtSignInErrorReason,
    options: { message?: string; userMessage?: string; cause?: unknown } = {},
  ) {
    const { code, userMessage } = jwtSignInErrorReasons[reason]
    super(code, {
      message: options.message ?? options.userMessage ?? userMessage,
      userMessage: options.userMessage ?? userMessage,
      details: { reason },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    })
    this.reason = reason
  }
}
