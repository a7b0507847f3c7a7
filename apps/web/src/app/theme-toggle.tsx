import { Moon, Sun } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useThemeStore } from '../lib/theme-store'
import { ThemeTriggerButton } from './theme-trigger-button'

// The menu (Radix DropdownMenu and its positioning code, some 28 KB on the wire) is fetched on
// intent: a pointer over the button or focus on it fetches it, a press shows it. A payer on a
// phone who never opens it never downloads it (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
const loadThemeMenu = () => import('./theme-menu')
const ThemeMenu = lazy(() => loadThemeMenu().then((module) => ({ default: module.ThemeMenu })))

function preloadThemeMenu(): void {
  void loadThemeMenu()
}

/**
 * The header's theme toggle (docs/product.md#theme): opens a menu of Light, Dark and System. Until
 * the first press an identical button holds its place; the press opens the menu as soon as its
 * code has arrived.
 */
export function ThemeToggle() {
  const resolved = useThemeStore((state) => state.resolved)
  const [openRequested, setOpenRequested] = useState(false)
  const Icon = resolved === 'dark' ? Moon : Sun
  const placeholder = (
    <ThemeTriggerButton
      aria-haspopup="menu"
      onClick={() => setOpenRequested(true)}
      onPointerEnter={preloadThemeMenu}
      onFocus={preloadThemeMenu}
    >
      <Icon aria-hidden="true" />
    </ThemeTriggerButton>
  )
  if (!openRequested) return placeholder
  return (
    <Suspense fallback={placeholder}>
      <ThemeMenu defaultOpen />
    </Suspense>
  )
}
