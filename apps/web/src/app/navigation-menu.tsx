import { AtSign, Link2, Menu, Settings } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import type { ComponentType, SVGProps } from 'react'
import { Link, useLocation } from 'react-router'
import { Button } from '../ui/button'
import { classNames } from '../ui/class-names'

type Destination = { label: string; to: string; icon: ComponentType<SVGProps<SVGSVGElement>> }

const destinations: readonly Destination[] = [
  { label: 'Links', to: '/dashboard', icon: Link2 },
  { label: 'Settings', to: '/settings', icon: Settings },
  { label: 'Claim a username', to: '/username', icon: AtSign },
]

/**
 * The header's menu (docs/product.md#header) on the pages that have one, the signed-in ones: the
 * 'Open menu' button and the places to go, the current one marked. Radix handles focus, arrow
 * keys and Escape.
 */
export function NavigationMenu() {
  const { pathname } = useLocation()
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label="Open menu">
          <Menu aria-hidden="true" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 min-w-52 rounded-card border border-border bg-surface p-1 text-fg shadow-pop data-[state=open]:animate-fade-in"
        >
          {destinations.map(({ label, to, icon: Icon }) => {
            const isCurrent = pathname === to
            return (
              <DropdownMenu.Item key={to} asChild>
                <Link
                  to={to}
                  aria-current={isCurrent ? 'page' : undefined}
                  className={classNames(
                    'flex min-h-11 cursor-pointer select-none items-center gap-3 rounded-control px-3 text-sm outline-none data-[highlighted]:bg-subtle',
                    isCurrent && 'font-medium text-accent',
                  )}
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                </Link>
              </DropdownMenu.Item>
            )
          })}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
