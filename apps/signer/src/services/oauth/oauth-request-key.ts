import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { AppError } from '@quicklinks/core/app-error'
import { EncryptJWT, jwtDecrypt } from 'jose'

/** A prepared sign-in must come back from the provider within 10 minutes. */
export const oauthRequestLifetimeSeconds = 600

const audience = 'quick-links-signer/oauth-request'

/** What a requestKey carries, sealed: its id (spent once), the PKCE verifier and the frame key's nonce. */
export type OAuthRequest = { requestId: string; codeVerifier: string; nonce: string; expiresAtMs: number }

/** The OAuth nonce of a frame key: the hex SHA-256 of its lower-case hex (docs/signer.md#social-login). */
export function getOAuthNonce(targetPublicKey: string): string {
  return createHash('sha256').update(targetPublicKey.toLowerCase(), 'utf8').digest('hex')
}

/** The PKCE S256 challenge of a verifier (RFC 7636 section 4.2). */
export function getCodeChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url')
}

/**
 * `prepare-oauth`: a fresh PKCE verifier (43 characters) and the requestKey that seals it with the
 * nonce (JWE, dir + A256GCM under a key derived from the master key), so the verifier never
 * leaves the signer and no row is needed until the callback spends the request.
 */
export async function createOAuthRequest(
  secret: Uint8Array,
  input: { nonce: string; nowMs: number },
): Promise<{ requestKey: string; codeChallenge: string; request: OAuthRequest }> {
  const codeVerifier = randomBytes(32).toString('base64url')
  const issuedAt = Math.floor(input.nowMs / 1000)
  const request: OAuthRequest = {
    requestId: randomUUID(),
    codeVerifier,
    nonce: input.nonce,
    expiresAtMs: (issuedAt + oauthRequestLifetimeSeconds) * 1000,
  }
  const requestKey = await new EncryptJWT({ cv: codeVerifier, nonce: input.nonce })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setJti(request.requestId)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + oauthRequestLifetimeSeconds)
    .encrypt(secret)
  return { requestKey, codeChallenge: getCodeChallenge(codeVerifier), request }
}

/**
 * Opens a requestKey. Fails by throwing AppError UNAUTHORIZED when it was not made here, was
 * altered, or has expired at `nowMs`.
 */
export async function openOAuthRequest(
  secret: Uint8Array,
  requestKey: string,
  nowMs: number,
): Promise<OAuthRequest> {
  try {
    const { payload } = await jwtDecrypt(requestKey, secret, {
      audience,
      currentDate: new Date(nowMs),
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      requiredClaims: ['jti', 'exp'],
    })
    const { cv, nonce, jti, exp } = payload
    if (
      typeof cv !== 'string' ||
      typeof nonce !== 'string' ||
      typeof jti !== 'string' ||
      typeof exp !== 'number'
    ) {
      throw new Error('the request key is incomplete')
    }
    return { requestId: jti, codeVerifier: cv, nonce, expiresAtMs: exp * 1000 }
  } catch (error) {
    throw new AppError('UNAUTHORIZED', {
      message: 'OAuth request key refused',
      userMessage: 'This sign-in has expired or is not valid. Start again.',
      details: { reason: 'OAUTH_REQUEST_INVALID' },
      cause: error,
    })
  }
}
