import { Check, Monitor, Moon, Sun } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { type ThemePreference, themePreferences, useThemeStore } from '../lib/theme-store'
import { ThemeTriggerButton } from './theme-trigger-button'

const options: Record<ThemePreference, { label: string; icon: typeof Sun }> = {
  light: { label: 'Light', icon: Sun },
  dark: { label: 'Dark', icon: Moon },
  system: { label: 'System', icon: Monitor },
}

/**
 * The theme menu: Light, Dark and System (menuitemradio). The trigger's icon shows the theme in
 * use. Radix handles focus, arrow keys and Escape. Loaded by ThemeToggle on the first press.
 */
export function ThemeMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const preference = useThemeStore((state) => state.preference)
  const resolved = useThemeStore((state) => state.resolved)
  const setPreference = useThemeStore((state) => state.setPreference)
  const TriggerIcon = resolved === 'dark' ? Moon : Sun
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>
        <ThemeTriggerButton title={`Theme: ${options[preference].label}`}>
          <TriggerIcon aria-hidden="true" />
        </ThemeTriggerButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-40 rounded-card border border-border bg-surface p-1 text-fg shadow-pop data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-1 font-medium text-muted text-xs">
            Theme
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={preference}
            onValueChange={(value) => {
              const next = themePreferences.find((option) => option === value)
              if (next !== undefined) setPreference(next)
            }}
          >
            {themePreferences.map((option) => {
              const { label, icon: Icon } = options[option]
              return (
                <DropdownMenu.RadioItem
                  key={option}
                  value={option}
                  className={
                    'flex min-h-11 cursor-pointer select-none items-center gap-3 rounded-control px-3 text-sm outline-none ' +
                    'data-[highlighted]:bg-subtle'
                  }
                >
                  <Icon aria-hidden="true" className="size-4 text-muted" />
                  <span className="flex-1">{label}</span>
                  <DropdownMenu.ItemIndicator>
                    <Check aria-hidden="true" className="size-4 text-accent" />
                  </DropdownMenu.ItemIndicator>
                </DropdownMenu.RadioItem>
              )
            })}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
