import { lazy, Suspense, useEffect } from 'react'
import { Outlet, ScrollRestoration, useLocation } from 'react-router'
import { useAuthModalStore } from '../features/auth/auth-modal-store'
import { useAuthReturnStore } from '../features/auth/auth-return-params'
import { useSession } from '../features/auth/session'
import { BetaBanner } from './beta-banner'
import { BottomNav } from './bottom-nav'
import { Footer } from './footer'
import { useClearPostSignInTarget } from './guards'
import { Header } from './header'
import { ScreenSkeleton } from './screen-skeleton'

// The sign-in flow (and the wallet SDK behind it) loads when the modal first opens, so public
// screens paint without it.
const AuthModal = lazy(() =>
  import('../features/auth/auth-modal').then((module) => ({ default: module.AuthModal })),
)

/** The chrome around every screen: beta banner, header, the screen, footer, bottom nav. */
export function RootLayout() {
  const { isSignedIn } = useSession()
  const { pathname } = useLocation()
  useClearPostSignInTarget(pathname)
  const hasOpenedAuthModal = useAuthModalStore((state) => state.isOpen || state.hasOpened)
  useCompleteMagicLinkAnywhere(pathname)
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-control focus:bg-surface focus:px-4 focus:py-3 focus:shadow-pop"
      >
        Skip to content
      </a>
      <BetaBanner />
      <Header hasMenu={isSignedIn && pathname !== '/onboarding'} />
      <main id="main" className="flex flex-1 flex-col">
        <Suspense fallback={<ScreenSkeleton />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {/* Onboarding is one step with one button; the tabs come once it is done. */}
      {isSignedIn && pathname !== '/onboarding' ? (
        <>
          {/* Keeps the footer clear of the fixed bottom navigation. */}
          <div aria-hidden="true" className="h-16 pb-[env(safe-area-inset-bottom)]" />
          <BottomNav />
        </>
      ) : null}
      {hasOpenedAuthModal ? (
        <Suspense fallback={null}>
          <AuthModal />
        </Suspense>
      ) : null}
      <ScrollRestoration />
    </div>
  )
}

/**
 * A magic link normally lands on /login, whose open auth modal completes it. Anywhere else (a
 * redirect parameter sent it elsewhere) the auth modal opens and completes it there too.
 */
function useCompleteMagicLinkAnywhere(pathname: string): void {
  const hasMagicLink = useAuthReturnStore(
    (state) => state.params.bundle !== undefined && state.params.orgId !== undefined,
  )
  const openAuthModal = useAuthModalStore((state) => state.open)
  useEffect(() => {
    if (hasMagicLink && pathname !== '/login') openAuthModal()
  }, [hasMagicLink, pathname, openAuthModal])
}
