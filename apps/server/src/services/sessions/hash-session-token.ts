import { createHash } from 'node:crypto'

/**
 * The database key of a session: SHA-256 (hex) of its cookie token. A 256-bit random token needs
 * no salt or slow hash; hashing only ensures a leaked table holds no usable cookies.
 */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}
