import { LogOut, Menu } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { Link, useLocation } from 'react-router'
import { useAuthModalStore } from '../features/auth/auth-modal-store'
import { useLogout, useSession } from '../features/auth/session'
import { productName } from '../lib/env'
import { Button } from '../ui/button'
import { ThemeToggle } from './theme-toggle'

// Only signed-in pages have the menu, and its Radix code is not needed for first paint: it loads
// when a page with a menu shows, while an identical button holds its place.
const NavigationMenu = lazy(() =>
  import('./navigation-menu').then((module) => ({ default: module.NavigationMenu })),
)

export type HeaderProps = {
  /** Shows the menu button on the left: the page has a menu (the signed-in pages). */
  hasMenu?: boolean
}

/**
 * The header on every page (docs/product.md#header): optional menu button, the product name
 * centred, the theme toggle, 'Sign in' (signed out, hidden on small screens; opens the auth modal)
 * or 'Logout' (wallet and app session, then /).
 */
export function Header({ hasMenu = false }: HeaderProps) {
  const session = useSession()
  const { pathname } = useLocation()
  const openAuthModal = useAuthModalStore((state) => state.open)
  const logout = useLogout()
  // /login is the sign-in itself: no second way in on top of it.
  const hasSignInHandler = pathname !== '/login'
  return (
    <header className="sticky top-0 z-30 border-border border-b bg-surface/85 backdrop-blur supports-[backdrop-filter]:bg-surface/75">
      <div className="mx-auto grid h-16 max-w-5xl grid-cols-[1fr_auto_1fr] items-center gap-2 px-2 sm:px-4">
        <div className="flex items-center">
          {hasMenu ? (
            <Suspense
              fallback={
                <Button variant="ghost" size="icon" aria-label="Open menu" aria-haspopup="menu">
                  <Menu aria-hidden="true" />
                </Button>
              }
            >
              <NavigationMenu />
            </Suspense>
          ) : null}
        </div>
        <Link
          to={session.isSignedIn ? '/dashboard' : '/'}
          className="flex min-h-11 items-center gap-2 rounded-control px-2 font-semibold text-base tracking-tight"
        >
          <LogoMark />
          {productName}
        </Link>
        <div className="flex items-center justify-end gap-1">
          <ThemeToggle />
          {session.isPending ? (
            // Holds the button's place so the header does not shift when the session answers.
            <span aria-hidden="true" className="hidden h-11 w-[84px] sm:block" />
          ) : session.isSignedIn ? (
            // Icon-only below 640 px so the product name stays centred; the name stays 'Logout'.
            <Button variant="secondary" size="compact" onClick={() => void logout()}>
              <LogOut aria-hidden="true" className="sm:hidden" />
              <span className="sr-only sm:not-sr-only">Logout</span>
            </Button>
          ) : hasSignInHandler ? (
            // A wrapper owns the display so the button's own inline-flex cannot override `hidden`.
            <div className="hidden sm:block">
              <Button onClick={() => openAuthModal()}>Sign in</Button>
            </div>
          ) : (
            <span aria-hidden="true" className="hidden h-11 w-[84px] sm:block" />
          )}
        </div>
      </div>
    </header>
  )
}

/** The product mark: a link glyph in the accent colour. Decorative; the name beside it is the label. */
export function LogoMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7 shrink-0">
      <rect width="24" height="24" rx="7" className="fill-accent" />
      <path
        d="M10.5 13.5a3 3 0 0 0 4.24 0l2.12-2.12a3 3 0 0 0-4.24-4.24l-.7.7M13.5 10.5a3 3 0 0 0-4.24 0l-2.12 2.12a3 3 0 1 0 4.24 4.24l.7-.7"
        fill="none"
        strokeWidth="1.8"
        strokeLinecap="round"
        className="stroke-accent-fg"
      />
    </svg>
  )
}
