import { describeAuthError } from './describe-auth-error'

/**
 * The sentence for a magic link that failed. A link that cannot be opened here was almost always
 * asked for in another browser: only the browser that asked holds the key the link's bundle is
 * encrypted to.
 */
export function describeMagicLinkError(error: unknown): string {
  const message = describeAuthError(error, 'This sign-in link no longer works. Request a new one.')
  if (message === 'Failed to inject credential bundle') {
    return 'This sign-in link could not be opened here. Open it in the browser where you asked for it, or request a new one.'
  }
  return message
}
