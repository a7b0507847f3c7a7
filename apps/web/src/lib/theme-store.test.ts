import { afterEach, describe, expect, it } from 'vitest'
import { setSystemColorScheme } from '../../test/test-server'
import { startThemeSync, themeStorageKey, useThemeStore } from './theme-store'

const stops: Array<() => void> = []
const start = () => {
  const stop = startThemeSync()
  stops.push(stop)
}
const isDark = () => document.documentElement.classList.contains('dark')

afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  setSystemColorScheme('light')
})

describe('theme store', () => {
  it('persists the chosen theme under `theme` and applies it to <html>', () => {
    start()
    useThemeStore.getState().setPreference('dark')

    expect(localStorage.getItem(themeStorageKey)).toBe('dark')
    expect(isDark()).toBe(true)
    expect(document.documentElement.style.colorScheme).toBe('dark')

    useThemeStore.getState().setPreference('light')
    expect(localStorage.getItem(themeStorageKey)).toBe('light')
    expect(isDark()).toBe(false)
  })

  it('starts from the stored theme', () => {
    localStorage.setItem(themeStorageKey, 'dark')
    start()
    expect(useThemeStore.getState().preference).toBe('dark')
    expect(isDark()).toBe(true)
  })

  it('resolves system from prefers-color-scheme', () => {
    setSystemColorScheme('dark')
    start()
    expect(useThemeStore.getState()).toMatchObject({ preference: 'system', resolved: 'dark' })
    expect(isDark()).toBe(true)
  })

  it('follows prefers-color-scheme changes live while on system', () => {
    start()
    expect(isDark()).toBe(false)

    setSystemColorScheme('dark')
    expect(useThemeStore.getState().resolved).toBe('dark')
    expect(isDark()).toBe(true)

    setSystemColorScheme('light')
    expect(useThemeStore.getState().resolved).toBe('light')
    expect(isDark()).toBe(false)
  })

  it('ignores the OS scheme while an explicit theme is chosen', () => {
    localStorage.setItem(themeStorageKey, 'light')
    start()
    setSystemColorScheme('dark')
    expect(useThemeStore.getState().resolved).toBe('light')
    expect(isDark()).toBe(false)
  })

  it('applies a theme chosen in another tab (storage event)', () => {
    start()
    expect(isDark()).toBe(false)

    // The other tab writes the shared localStorage, then this tab gets the storage event.
    localStorage.setItem(themeStorageKey, 'dark')
    window.dispatchEvent(new StorageEvent('storage', { key: themeStorageKey, newValue: 'dark' }))

    expect(useThemeStore.getState().preference).toBe('dark')
    expect(isDark()).toBe(true)
  })
})
