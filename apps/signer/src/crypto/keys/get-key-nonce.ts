import { createHash } from 'node:crypto'

/**
 * The nonce that binds a token to one sign-in: the hex SHA-256 of the frame key written as
 * lower-case hex, Turnkey's convention for `oauth_login` and what a custom JWT carries
 * (docs/signer.md#jwt-single-use). Social login computes the same value (getOAuthNonce). Pure.
 */
export function getKeyNonce(targetPublicKey: string): string {
  return createHash('sha256').update(targetPublicKey.toLowerCase(), 'utf8').digest('hex')
}
