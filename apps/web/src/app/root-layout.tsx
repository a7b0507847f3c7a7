import { Suspense } from 'react'
import { Outlet, ScrollRestoration } from 'react-router'
import { useSession } from '../features/auth/session'
import { BetaBanner } from './beta-banner'
import { BottomNav } from './bottom-nav'
import { Footer } from './footer'
import { Header } from './header'
import { ScreenSkeleton } from './screen-skeleton'

/** The chrome around every screen: beta banner, header, the screen, footer, bottom nav. */
export function RootLayout() {
  const { isSignedIn } = useSession()
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-control focus:bg-surface focus:px-4 focus:py-3 focus:shadow-pop"
      >
        Skip to content
      </a>
      <BetaBanner />
      <Header />
      <main id="main" className="flex flex-1 flex-col">
        <Suspense fallback={<ScreenSkeleton />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {isSignedIn ? (
        <>
          {/* Keeps the footer clear of the fixed bottom navigation. */}
          <div aria-hidden="true" className="h-16 pb-[env(safe-area-inset-bottom)]" />
          <BottomNav />
        </>
      ) : null}
      <ScrollRestoration />
    </div>
  )
}
