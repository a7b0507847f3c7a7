import { type UserResponse, userResponseSchema } from '@quicklinks/core/api/auth'
import { AppError, parseErrorBody } from '@quicklinks/core/app-error'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useNavigate } from 'react-router'
import { type ApiClient, api, readAnswer } from '../../lib/api-client'
import { clearOfflineQueue, setOfflineQueueOwner } from '../../lib/offline-queue'
import { clearNewUser, usePostSignInStore } from './post-sign-in'
import { logoutWallet } from './wallet-session'

/**
 * The app session (docs/product.md#session-state, docs/api.md#auth-me): loading, then signed in (the user in
 * the answer's `data`) or signed out (null on 401). Three layers: `getSession` (plain function),
 * `sessionQueryOptions` (query options), `useSession` (thin hook).
 */

/** The signed-in user as the API answers it (docs/api.md#user). */
export type SessionUser = UserResponse

export const sessionKeys = {
  all: ['session'] as const,
  me: () => ['session', 'me'] as const,
}

/** Set while a logout runs (useLogout); session checks wait for it. */
let logoutInFlight: Promise<void> | undefined

/**
 * GET /api/auth/me. Resolves with the user, or null when the server answers 401 (signed out).
 * Any other failing answer rejects with an AppError whose message is the response text; a
 * network failure rejects with an AppError coded NETWORK. Each answer tells the offline queue who
 * is signed in (docs/product.md#offline-queue): another user's queued writes are dropped.
 */
export async function getSession(client: ApiClient = api, signal?: AbortSignal): Promise<SessionUser | null> {
  // A check asked for while a logout runs answers after it: it must not sign the page back in.
  if (logoutInFlight !== undefined) await logoutInFlight
  const response = await client.send('/api/auth/me', signal === undefined ? {} : { signal })
  if (response.status === 401) {
    setOfflineQueueOwner(null)
    return null
  }
  if (!response.ok) {
    const text = await response.text()
    const parsed = parseErrorBody(parseJson(text), response.status, 'Could not check your session.')
    throw new AppError(parsed.code, {
      message: text.length > 0 ? text : `GET /api/auth/me answered ${response.status}`,
      userMessage: parsed.userMessage,
    })
  }
  const body = await readAnswer(response, userResponseSchema, {
    description: 'GET /api/auth/me',
    fallbackMessage: 'Could not check your session.',
  })
  setOfflineQueueOwner(body.data.id)
  return body.data
}

/** No cache, refetch on mount, no refetch on window focus, no retry (docs/product.md#session-state). */
export function sessionQueryOptions(client: ApiClient = api) {
  return queryOptions({
    queryKey: sessionKeys.me(),
    queryFn: ({ signal }) => getSession(client, signal),
    gcTime: 0,
    staleTime: 0,
    refetchOnMount: true,
    refetchOnWindowFocus: false,
    retry: false,
  })
}

export type SessionState = {
  user: SessionUser | null
  /** True until the first answer (or failure) arrives. */
  isPending: boolean
  isSignedIn: boolean
  error: Error | null
}

/**
 * The current session. A failing session check (server down, 5xx) counts as signed out, so public
 * screens still render and protected ones send the visitor to /.
 */
export function useSession(): SessionState {
  const query = useQuery(sessionQueryOptions())
  const user = query.data ?? null
  return { user, isPending: query.isPending, isSignedIn: user !== null, error: query.error }
}

/**
 * POST /api/auth/logout, after dropping the offline queue unsent (the writes were this user's; the
 * next one to sign in here must not replay them). The result is ignored and errors are swallowed
 * (logged only).
 */
export async function logout(client: ApiClient = api): Promise<void> {
  clearOfflineQueue()
  try {
    // Never queued offline: replaying a logout later could end a newer session.
    await client.send('/api/auth/logout', { method: 'POST', queueWhenOffline: false })
  } catch (error) {
    console.error('Logout failed', error)
  }
}

/**
 * Logout (docs/product.md#logout): the wallet session ends (the SDK disconnects the signer, clears
 * its persisted state and sets DISCONNECTED); then the page stops acting for the user (the session
 * reads signed out, so no protected screen mounts, not even one whose code is still loading; the
 * user's requests in flight are aborted and their cached answers dropped; a session check asked
 * meanwhile waits for the logout's answer); then the logout endpoint is called, the session query
 * refreshed and the route replaced with /. Never rejects: each failure is logged and the rest
 * still runs.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useCallback(async () => {
    let endLogout = () => {}
    logoutInFlight = new Promise<void>((resolve) => {
      endLogout = resolve
    })
    try {
      try {
        await logoutWallet()
      } catch (error) {
        console.error('Wallet logout failed', error)
      }
      // Signed out before the server hears of it: the wallet is disconnected, so nothing signs the
      // page back in, and the user's requests in flight are aborted rather than answered 401.
      await queryClient.cancelQueries()
      queryClient.setQueryData(sessionKeys.me(), null)
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] })
      clearNewUser()
      usePostSignInStore.getState().setTarget(null)
      await logout()
    } finally {
      logoutInFlight = undefined
      endLogout()
    }
    void queryClient.invalidateQueries({ queryKey: sessionKeys.me() })
    await navigate('/', { replace: true })
  }, [queryClient, navigate])
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
