import { create } from 'zustand'

/**
 * Theme (docs/product.md#theme): light, dark or system, remembered in localStorage under `theme`. System
 * follows `prefers-color-scheme` live; a change made in another tab (storage event) applies here too.
 * The inline script in index.html applies the same rules before first paint, so there is no flash.
 */

export type ThemePreference = 'light' | 'dark' | 'system'
export type ResolvedTheme = 'light' | 'dark'

export const themeStorageKey = 'theme'
export const themePreferences: readonly ThemePreference[] = ['light', 'dark', 'system']
export const darkSchemeQuery = '(prefers-color-scheme: dark)'

type ThemeState = {
  preference: ThemePreference
  systemTheme: ResolvedTheme
  resolved: ResolvedTheme
  /** Stores the choice under `theme` and applies it at once. */
  setPreference: (preference: ThemePreference) => void
}

export function isThemePreference(value: unknown): value is ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system'
}

/** The stored preference; anything missing or unknown means system. */
export function readThemePreference(storage: Storage = localStorage): ThemePreference {
  try {
    const value = storage.getItem(themeStorageKey)
    return isThemePreference(value) ? value : 'system'
  } catch {
    return 'system'
  }
}

export function resolveTheme(preference: ThemePreference, systemTheme: ResolvedTheme): ResolvedTheme {
  return preference === 'system' ? systemTheme : preference
}

/** The OS preference as the browser reports it; light where matchMedia is unavailable. */
export function readSystemTheme(win: Window = window): ResolvedTheme {
  return typeof win.matchMedia === 'function' && win.matchMedia(darkSchemeQuery).matches ? 'dark' : 'light'
}

/** Puts the `dark` class (Tailwind's class strategy) and the native color-scheme on <html>. */
export function applyTheme(resolved: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', resolved === 'dark')
  root.style.colorScheme = resolved
}

export const useThemeStore = create<ThemeState>()((set, get) => ({
  preference: 'system',
  systemTheme: 'light',
  resolved: 'light',
  setPreference: (preference) => {
    try {
      localStorage.setItem(themeStorageKey, preference)
    } catch {
      // Private mode or a full quota: the choice still applies to this page.
    }
    const resolved = resolveTheme(preference, get().systemTheme)
    set({ preference, resolved })
    applyTheme(resolved)
  },
}))

/**
 * Loads the stored preference and the OS theme into the store, applies them, and keeps them in sync
 * with `prefers-color-scheme` changes and with other tabs. Returns a cleanup.
 */
export function startThemeSync(win: Window = window): () => void {
  const storage = win.localStorage
  const update = (): void => {
    const preference = readThemePreference(storage)
    const systemTheme = readSystemTheme(win)
    const resolved = resolveTheme(preference, systemTheme)
    useThemeStore.setState({ preference, systemTheme, resolved })
    applyTheme(resolved, win.document.documentElement)
  }
  const onStorage = (event: StorageEvent): void => {
    // key null means the other tab cleared all of localStorage.
    if (event.key === themeStorageKey || event.key === null) update()
  }
  const media = typeof win.matchMedia === 'function' ? win.matchMedia(darkSchemeQuery) : undefined

  update()
  media?.addEventListener('change', update)
  win.addEventListener('storage', onStorage)
  return () => {
    media?.removeEventListener('change', update)
    win.removeEventListener('storage', onStorage)
  }
}
