import type { ReactNode } from 'react'
import { Navigate, useSearchParams } from 'react-router'
import { useSession } from '../features/auth/session'
import { ScreenSkeleton } from './screen-skeleton'

export const defaultSignedInPath = '/dashboard'

/** Screens a signed-in user is sent away from (SPEC §2 "Guards"). */
const signedOutOnlyPaths = new Set(['/', '/login', '/onboarding'])

/**
 * The caller-supplied target (`?next=`) when it is a path inside this app that does not bounce back
 * to a signed-out-only screen; otherwise /dashboard. Never an absolute or protocol-relative URL.
 */
export function getSignedInTarget(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return defaultSignedInPath
  }
  let url: URL
  try {
    url = new URL(next, 'http://app.invalid')
  } catch {
    return defaultSignedInPath
  }
  if (url.origin !== 'http://app.invalid' || signedOutOnlyPaths.has(url.pathname)) return defaultSignedInPath
  return `${url.pathname}${url.search}${url.hash}`
}

/** A protected screen: without a session the visitor is sent to / (replace navigation). */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession()
  if (session.isPending) return <ScreenSkeleton />
  if (!session.isSignedIn) return <Navigate to="/" replace />
  return children
}

/**
 * A signed-out screen (/, /login, /onboarding): a signed-in user goes to /dashboard or `?next=`.
 * It renders at once while the session is checked, so a visitor's first paint never waits for it.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const session = useSession()
  const [searchParams] = useSearchParams()
  if (session.isSignedIn) return <Navigate to={getSignedInTarget(searchParams.get('next'))} replace />
  return children
}
