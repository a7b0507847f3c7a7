import { AppError } from '@quicklinks/core/app-error'
import { isBrowserOffline } from '../../lib/offline-queue'
import { offlineSignInMessage } from '../../ui/offline-notice'

/**
 * The text to show for a failed sign-in step. The signer's own message wins (it says what to do:
 * tries left, wait 3 minutes…); a message that is the raw error body the signer answered
 * (`{"error":{"message":…}}`) is unwrapped; anything else gets the fallback. While the browser is
 * offline the text says sign-in needs a connection, whatever the error.
 */
export function describeAuthError(error: unknown, fallback = 'Something went wrong. Try again.'): string {
  // Offline, the failure is the missing network (a bare 'Failed to fetch' otherwise): say so.
  if (isBrowserOffline()) return offlineSignInMessage
  if (error instanceof AppError) return error.userMessage
  const message =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
      ? (error as { message: string }).message.trim()
      : ''
  if (message.length === 0) return fallback
  return unwrapErrorBody(message) ?? message
}

function unwrapErrorBody(text: string): string | undefined {
  const start = text.indexOf('{')
  if (start === -1) return undefined
  try {
    const body: unknown = JSON.parse(text.slice(start))
    const inner = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined
    if (typeof inner === 'string') return inner
    const message =
      typeof inner === 'object' && inner !== null ? (inner as { message?: unknown }).message : undefined
    return typeof message === 'string' && message.length > 0 ? message : undefined
  } catch {
    return undefined
  }
}
