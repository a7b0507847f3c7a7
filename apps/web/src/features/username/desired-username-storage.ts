/** The name the visitor wants, kept across the sign-in (docs/product.md#local-storage). */
export const desiredUsernameStorageKey = 'tw_desired_username'

/** The saved name, or null (also when storage is unavailable). */
export function readDesiredUsername(storage: Storage = localStorage): string | null {
  try {
    return storage.getItem(desiredUsernameStorageKey)
  } catch {
    return null
  }
}

/** Saves the name (an available lookup), or removes it with null (a taken one). */
export function writeDesiredUsername(name: string | null, storage: Storage = localStorage): void {
  try {
    if (name === null) storage.removeItem(desiredUsernameStorageKey)
    else storage.setItem(desiredUsernameStorageKey, name)
  } catch {
    // Storage unavailable: the claim still works within this page.
  }
}
