import { Monitor, Moon, Sun } from 'lucide-react'
import { getNextThemePreference, type ThemePreference, useThemeStore } from '../lib/theme-store'
import { Button } from '../ui/button'

const labels: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' }
const icons = { light: Sun, dark: Moon, system: Monitor } satisfies Record<ThemePreference, typeof Sun>

/** The header's theme toggle: cycles light → dark → system; the icon shows the current choice. */
export function ThemeToggle() {
  const preference = useThemeStore((state) => state.preference)
  const setPreference = useThemeStore((state) => state.setPreference)
  const next = getNextThemePreference(preference)
  const Icon = icons[preference]
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Toggle theme, current: ${labels[preference]}`}
      title={`Theme: ${labels[preference]} (switch to ${labels[next]})`}
      onClick={() => setPreference(next)}
    >
      <Icon aria-hidden="true" />
    </Button>
  )
}
