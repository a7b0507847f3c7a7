import { userResponseSchema } from '@quicklinks/core/api/auth'
import { usernameExistsResponseSchema } from '@quicklinks/core/api/users'
import { type ApiClient, api } from '../../lib/api-client'
import type { SessionUser } from '../auth/session'

/** 3 to 32 letters, digits or underscores, the server's rule too (docs/product.md#username-rules). */
export const usernamePattern = /^[A-Za-z0-9_]{3,32}$/

/** No lookup below 3 characters (docs/product.md#username). */
export const usernameMinLength = 3

/**
 * GET /api/users/username/{username}/exists: true when the name is taken. Rejects with an
 * AppError when the server fails or answers something else, and with the AbortError when `signal`
 * aborts (a newer lookup superseded this one).
 */
export async function checkUsernameExists(
  username: string,
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<boolean> {
  const body = await client.request(
    `/api/users/username/${encodeURIComponent(username)}/exists`,
    usernameExistsResponseSchema,
    {
      fallbackMessage: 'Could not check availability. Please try again.',
      ...(signal === undefined ? {} : { signal }),
    },
  )
  return body.exists
}

/**
 * POST /api/users/username: claims `username` for the signed-in user and resolves with the user.
 * Rejects with an AppError: CONFLICT ('That username is taken.') when someone holds it,
 * UNAUTHORIZED when signed out, VALIDATION_FAILED when the name breaks the rule.
 */
export async function claimUsername(username: string, client: ApiClient = api): Promise<SessionUser> {
  const body = await client.request('/api/users/username', userResponseSchema, {
    method: 'POST',
    body: { username },
    fallbackMessage: 'Could not claim the username. Please try again.',
    // A claim replayed later could take a name the user has since given up.
    queueWhenOffline: false,
  })
  return body.data
}
