import { createHash } from 'node:crypto'
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose'
import { decodeJwt } from '../../crypto/jwt/decode-jwt.ts'
import { getKeyNonce } from '../../crypto/keys/get-key-nonce.ts'
import type { JwtProvider } from '../../signer-config.ts'
import { JwtSignInError } from './jwt-sign-in-error.ts'

/**
 * Who a verified token names: its provider, and the issuer and subject that key the user; and
 * what spends it (`onceKey`, recorded until `onceUntilMs`: a token signs in once).
 */
export type VerifiedJwt = {
  providerId: string
  issuer: string
  subject: string
  onceKey: string
  onceUntilMs: number
}

/** Checks a custom JWT (docs/signer.md#auth-jwt) for one sign-in; see {@link createJwtVerifier}. */
export type JwtVerifier = (input: {
  jwt: string
  authProvider?: string
  targetPublicKey: string
}) => Promise<VerifiedJwt>

/** Issuer and signer clocks may disagree this much about `exp`, `nbf` and `iat`. */
export const jwtClockToleranceSeconds = 30

/** With `requires: 'jti'`: the oldest `iat` accepted when the provider names no `maxAgeSeconds`. */
export const defaultJwtMaxAgeSeconds = 300

/** The longest `jti` kept. */
const maxJtiLength = 255

/** Signatures by public keys only: a JWKS never holds a shared secret, and `none` signs nothing. */
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
  'Ed25519',
]

/** The longest subject kept as part of a user's key. */
const maxSubjectLength = 255

/**
 * Builds the check of `auth-jwt` tokens for the configured issuers. Each issuer's JSON Web Key Set
 * is fetched on first use and cached (jose refetches it, at most every 30 s, when a token names a
 * key it does not hold), so one verifier lives as long as the routes. A token is read first (its
 * `iss` picks the provider; with `authProvider` it must be that provider's issuer), then verified
 * with `jose`: signature by a key of the provider's JWKS, `iss`, `aud`, `exp` and `nbf` at `now`
 * (± {@link jwtClockToleranceSeconds}), and a `sub`. Then what binds it to one sign-in
 * ({@link checkSingleUse}): by default a `nonce` equal to the hex SHA-256 of `targetPublicKey`;
 * for a provider with `requires: 'jti'` a `jti` and an `iat` at most `maxAgeSeconds` old (a
 * nonce, when present, must match there too). The answer names what the caller records to spend
 * the token; this function records nothing.
 *
 * Fails by rejecting with a JwtSignInError (401, `details.reason`): JWT_MALFORMED ('Invalid token
 * specified: …'), JWT_PROVIDER_UNKNOWN, JWT_ISSUER_UNKNOWN, JWT_AUDIENCE_INVALID, JWT_EXPIRED,
 * JWT_NOT_YET_VALID, JWT_SIGNATURE_INVALID, JWT_CLAIMS_INVALID, JWT_NONCE_MISSING,
 * JWT_NONCE_MISMATCH, JWT_JTI_MISSING, JWT_TOO_OLD; or JWKS_UNAVAILABLE (502) when the issuer's
 * keys cannot be fetched.
 */
export function createJwtVerifier(providers: readonly JwtProvider[], now: () => number): JwtVerifier {
  const keySets = new Map(
    providers.map((provider) => [
      provider.id,
      createRemoteJWKSet(new URL(provider.jwksUrl), { timeoutDuration: 5000 }),
    ]),
  )
  return async ({ jwt, authProvider, targetPublicKey }) => {
    let claims: Record<string, unknown>
    try {
      claims = decodeJwt(jwt).payload
    } catch (error) {
      throw new JwtSignInError('JWT_MALFORMED', { userMessage: (error as Error).message })
    }
    const issuer = typeof claims.iss === 'string' ? claims.iss : undefined
    const named = issuer === undefined ? 'no issuer (iss)' : `issuer ${issuer}`
    const provider =
      authProvider === undefined
        ? providers.find((candidate) => candidate.issuer === issuer)
        : providers.find((candidate) => candidate.id === authProvider)
    if (provider === undefined) {
      throw authProvider === undefined
        ? new JwtSignInError('JWT_ISSUER_UNKNOWN', {
            userMessage: `The token’s ${named} is not accepted here.`,
          })
        : new JwtSignInError('JWT_PROVIDER_UNKNOWN', {
            userMessage: `No auth provider found with id ${authProvider}`,
          })
    }
    if (issuer !== provider.issuer) {
      throw new JwtSignInError('JWT_ISSUER_UNKNOWN', {
        userMessage: `The token has ${named}, not that of auth provider ${provider.id}.`,
      })
    }
    const keySet = keySets.get(provider.id)
    if (keySet === undefined) throw new Error(`No key set for JWT provider ${provider.id}`)
    let verified: JWTPayload
    try {
      const { payload } = await jwtVerify(jwt, keySet, {
        issuer: provider.issuer,
        audience: provider.audience,
        algorithms: allowedAlgorithms,
        currentDate: new Date(now()),
        clockTolerance: jwtClockToleranceSeconds,
        requiredClaims: ['exp', 'sub'],
      })
      verified = payload
    } catch (error) {
      throw toJwtSignInError(error)
    }
    const subject = verified.sub
    if (typeof subject !== 'string' || subject.length === 0 || subject.length > maxSubjectLength) {
      throw new JwtSignInError('JWT_CLAIMS_INVALID', {
        userMessage: `The token’s sub claim must be a string of 1 to ${maxSubjectLength} characters.`,
      })
    }
    const once = checkSingleUse({ jwt, payload: verified, provider, targetPublicKey, nowMs: now() })
    return { providerId: provider.id, issuer: provider.issuer, subject, ...once }
  }
}

/**
 * What makes a verified token good for one sign-in only, and the key that spends it. A nonce-bound
 * token (the default, as Turnkey's `oauth_login` wants: `nonce` = hex SHA-256 of the lower-case
 * `targetPublicKey`) cannot be put to another key; it is spent by its own hash until it expires.
 * A `jti` token (`requires: 'jti'`) is spent by its `jti` until its `iat` is older than the
 * provider's maximum age, after which it is refused anyway. Throws a JwtSignInError.
 */
function checkSingleUse(input: {
  jwt: string
  payload: JWTPayload
  provider: JwtProvider
  targetPublicKey: string
  nowMs: number
}): { onceKey: string; onceUntilMs: number } {
  const { payload, provider } = input
  const toleranceMs = jwtClockToleranceSeconds * 1000
  const isJti = provider.requires === 'jti'
  if (payload.nonce === undefined && !isJti) throw new JwtSignInError('JWT_NONCE_MISSING')
  if (
    payload.nonce !== undefined &&
    (typeof payload.nonce !== 'string' || payload.nonce.toLowerCase() !== getKeyNonce(input.targetPublicKey))
  ) {
    throw new JwtSignInError('JWT_NONCE_MISMATCH')
  }
  if (!isJti) {
    const hash = createHash('sha256').update(input.jwt, 'utf8').digest('hex')
    // jwtVerify required `exp`.
    return { onceKey: `jwt-token:${hash}`, onceUntilMs: (payload.exp ?? 0) * 1000 + toleranceMs }
  }
  const { jti, iat } = payload
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > maxJtiLength) {
    throw new JwtSignInError('JWT_JTI_MISSING')
  }
  if (typeof iat !== 'number' || !Number.isFinite(iat)) {
    throw new JwtSignInError('JWT_CLAIMS_INVALID', {
      userMessage: 'The token has no iat claim (this provider’s tokens must say when they were issued).',
    })
  }
  if (iat * 1000 > input.nowMs + toleranceMs) {
    throw new JwtSignInError('JWT_CLAIMS_INVALID', { userMessage: 'The token’s iat claim is in the future.' })
  }
  const maxAgeMs = (provider.maxAgeSeconds ?? defaultJwtMaxAgeSeconds) * 1000
  if (input.nowMs - iat * 1000 > maxAgeMs + toleranceMs) throw new JwtSignInError('JWT_TOO_OLD')
  const jtiHash = createHash('sha256').update(jti, 'utf8').digest('hex')
  return { onceKey: `jwt-jti:${provider.id}:${jtiHash}`, onceUntilMs: iat * 1000 + maxAgeMs + toleranceMs }
}

/** jose's refusals (and a JWKS that cannot be fetched) as the route's reasons; anything else as is. */
function toJwtSignInError(error: unknown): unknown {
  if (error instanceof JwtSignInError) return error
  if (error instanceof errors.JWTExpired) return new JwtSignInError('JWT_EXPIRED', { cause: error })
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return new JwtSignInError('JWT_AUDIENCE_INVALID', { cause: error })
    if (error.claim === 'nbf') return new JwtSignInError('JWT_NOT_YET_VALID', { cause: error })
    return new JwtSignInError('JWT_CLAIMS_INVALID', {
      userMessage:
        error.reason === 'missing'
          ? `The token has no ${error.claim} claim.`
          : `The token’s ${error.claim} claim is not valid.`,
      cause: error,
    })
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return new JwtSignInError('JWT_SIGNATURE_INVALID', { message: (error as Error).message, cause: error })
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new JwtSignInError('JWT_MALFORMED', {
      userMessage: `Invalid token specified: ${error.message}`,
      cause: error,
    })
  }
  // A timeout, a non-200 answer, a body that is not a key set, or a fetch that never connected.
  if (error instanceof errors.JOSEError || (error instanceof TypeError && /fetch/i.test(error.message))) {
    return new JwtSignInError('JWKS_UNAVAILABLE', { message: (error as Error).message, cause: error })
  }
  return error
}
