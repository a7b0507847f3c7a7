import { Moon, Sun } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useThemeStore } from '../lib/theme-store'
import { ThemeTriggerButton } from './theme-trigger-button'

// The menu (Radix DropdownMenu and its positioning code) is not needed for first paint: it loads
// right after, while an identical button holds its place.
const ThemeMenu = lazy(() => import('./theme-menu').then((module) => ({ default: module.ThemeMenu })))

/**
 * The header's theme toggle (docs/product.md#theme): opens a menu of Light, Dark and System. A press that
 * lands before the menu's code has loaded opens the menu as soon as it arrives.
 */
export function ThemeToggle() {
  const resolved = useThemeStore((state) => state.resolved)
  const [openRequested, setOpenRequested] = useState(false)
  const Icon = resolved === 'dark' ? Moon : Sun
  return (
    <Suspense
      fallback={
        <ThemeTriggerButton aria-haspopup="menu" onClick={() => setOpenRequested(true)}>
          <Icon aria-hidden="true" />
        </ThemeTriggerButton>
      }
    >
      <ThemeMenu defaultOpen={openRequested} />
    </Suspense>
  )
}
