import { create } from 'zustand'

/**
 * Where a user goes once signed in, and the "just signed up" mark that lets a new user see
 * /onboarding (docs/decisions/0007-onboarding-guard.md).
 */

export const defaultSignedInPath = '/dashboard'
export const onboardingPath = '/onboarding'

/** Screens a signed-in user is sent away from (docs/product.md#guards). */
export const signedOutOnlyPaths: ReadonlySet<string> = new Set(['/', '/login', '/onboarding'])

/**
 * The caller-supplied target (`?next=`) when it is a path inside this app that does not bounce back
 * to a signed-out-only screen; otherwise /dashboard. Never an absolute or protocol-relative URL.
 */
export function getSignedInTarget(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return defaultSignedInPath
  }
  let url: URL
  try {
    url = new URL(next, 'http://app.invalid')
  } catch {
    return defaultSignedInPath
  }
  if (url.origin !== 'http://app.invalid' || signedOutOnlyPaths.has(url.pathname)) return defaultSignedInPath
  return `${url.pathname}${url.search}${url.hash}`
}

type PostSignInState = {
  /**
   * The screen the sign-in that just finished goes to. The signed-out-only guards send a user who
   * became signed in there (not to /dashboard), until the app arrives on it.
   */
  target: string | null
  setTarget: (target: string | null) => void
}

export const usePostSignInStore = create<PostSignInState>()((set) => ({
  target: null,
  setTarget: (target) => set({ target }),
}))

/** sessionStorage: per tab, survives a reload, gone when the tab closes. */
export const newUserStorageKey = 'ql-new-user'

/** Marks `address` as having just signed up, so /onboarding lets it in. */
export function markNewUser(address: string, storage: Storage = sessionStorage): void {
  try {
    storage.setItem(newUserStorageKey, address.toLowerCase())
  } catch {
    // Storage unavailable: the user goes straight to the dashboard on the next guard check.
  }
}

/** True when `address` signed up in this tab and has not left onboarding yet. */
export function isNewUser(address: string | undefined, storage: Storage = sessionStorage): boolean {
  if (address === undefined) return false
  try {
    return storage.getItem(newUserStorageKey) === address.toLowerCase()
  } catch {
    return false
  }
}

/** Ends onboarding for this tab (on 'Continue to dashboard' and on logout). */
export function clearNewUser(storage: Storage = sessionStorage): void {
  try {
    storage.removeItem(newUserStorageKey)
  } catch {
    // Nothing stored, nothing to clear.
  }
}
