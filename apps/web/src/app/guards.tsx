import { type ReactNode, useEffect } from 'react'
import { Navigate, useSearchParams } from 'react-router'
import { getSignedInTarget, isNewUser, usePostSignInStore } from '../features/auth/post-sign-in'
import { useSession } from '../features/auth/session'
import { ScreenSkeleton } from './screen-skeleton'

/** A protected screen: without a session the visitor is sent to / (replace navigation). */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession()
  if (session.isPending) return <ScreenSkeleton />
  if (!session.isSignedIn) return <Navigate to="/" replace />
  return children
}

/**
 * A signed-out screen (/, /login): a signed-in user goes to /dashboard or `?next=`, or, right after
 * a sign-in, where that sign-in is headed (/onboarding for a new user). It renders at once while
 * the session is checked, so a visitor's first paint never waits for it.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const session = useSession()
  const [searchParams] = useSearchParams()
  const pendingTarget = usePostSignInStore((state) => state.target)
  if (session.isSignedIn) {
    return <Navigate to={pendingTarget ?? getSignedInTarget(searchParams.get('next'))} replace />
  }
  return children
}

/**
 * /onboarding: for a user who has just signed up in this tab (docs/decisions/0007). Signed out →
 * / ; signed in but not new → /dashboard or `?next=` (docs/product.md#guards).
 */
export function RequireNewUser({ children }: { children: ReactNode }) {
  const session = useSession()
  const [searchParams] = useSearchParams()
  if (session.isPending) return <ScreenSkeleton />
  if (!session.isSignedIn) return <Navigate to="/" replace />
  if (!isNewUser(session.user?.address)) {
    return <Navigate to={getSignedInTarget(searchParams.get('next'))} replace />
  }
  return children
}

/** Forgets the post-sign-in target once the app has arrived on it. */
export function useClearPostSignInTarget(pathname: string): void {
  const target = usePostSignInStore((state) => state.target)
  const setTarget = usePostSignInStore((state) => state.setTarget)
  useEffect(() => {
    if (target !== null && new URL(target, 'http://app.invalid').pathname === pathname) setTarget(null)
  }, [target, pathname, setTarget])
}
