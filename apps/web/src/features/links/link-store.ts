import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { Link } from './link'

/** The owner's link list is persisted locally under this key, links only (docs/product.md#local-storage). */
export const linkStorageKey = 'link-storage'

export type LinkStoreState = {
  links: Link[]
  /** Whose links these are: a browser shared by two payees never paints one's links to the other. */
  ownerId: string | null
  /** The last failure to show in red ('Failed to fetch links', 'Failed to update link', …); not persisted. */
  error: string | null
  setLinks: (links: Link[], ownerId: string | null) => void
  /** Replaces one link by id (an optimistic toggle or a server answer). */
  replaceLink: (link: Link) => void
  removeLink: (id: string) => void
  setError: (error: string | null) => void
  clear: () => void
}

/**
 * The owner's links as last seen, so the dashboard paints them at once on the next visit while the
 * list is fetched again. Only `links` (and whose they are) reach localStorage.
 */
export const useLinkStore = create<LinkStoreState>()(
  persist(
    (set) => ({
      links: [],
      ownerId: null,
      error: null,
      setLinks: (links, ownerId) => set({ links, ownerId }),
      replaceLink: (link) =>
        set((state) => ({ links: state.links.map((item) => (item.id === link.id ? link : item)) })),
      removeLink: (id) => set((state) => ({ links: state.links.filter((item) => item.id !== id) })),
      setError: (error) => set({ error }),
      clear: () => set({ links: [], ownerId: null, error: null }),
    }),
    {
      name: linkStorageKey,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ links: state.links, ownerId: state.ownerId }),
    },
  ),
)
