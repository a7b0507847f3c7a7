import { Link2, Settings } from 'lucide-react'
import type { ComponentType, SVGProps } from 'react'
import { Link, useLocation } from 'react-router'
import { classNames } from '../ui/class-names'

type Tab = {
  label: string
  to: string
  icon: ComponentType<SVGProps<SVGSVGElement>>
  isActive: (pathname: string) => boolean
}

const tabs: Tab[] = [
  {
    label: 'Links',
    to: '/dashboard',
    icon: Link2,
    // Also highlighted on a links page (docs/product.md#bottom-nav).
    isActive: (pathname) => /^\/(dashboard|links)(\/|$)/.test(pathname),
  },
  {
    label: 'Settings',
    to: '/settings',
    icon: Settings,
    isActive: (pathname) => /^\/settings(\/|$)/.test(pathname),
  },
]

/** The signed-in bottom navigation: Links and Settings. */
export function BottomNav() {
  const { pathname } = useLocation()
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-30 border-border border-t bg-surface/90 pb-[env(safe-area-inset-bottom)] backdrop-blur"
    >
      <ul className="mx-auto grid max-w-md grid-cols-2">
        {tabs.map((tab) => {
          const active = tab.isActive(pathname)
          const Icon = tab.icon
          return (
            <li key={tab.to}>
              <Link
                to={tab.to}
                aria-current={active ? 'page' : undefined}
                className={classNames(
                  'flex min-h-14 flex-col items-center justify-center gap-0.5 font-medium text-xs transition-colors',
                  active ? 'text-accent' : 'text-muted hover:text-fg',
                )}
              >
                <Icon aria-hidden="true" className="size-5" />
                {tab.label}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
