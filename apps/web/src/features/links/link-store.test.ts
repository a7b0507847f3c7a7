import { describe, expect, it } from 'vitest'
import type { Link } from './link'
import { linkStorageKey, useLinkStore } from './link-store'

const link = { id: 'l1', alias: 'Coffee', alias_slug: 'coffee', favorite: false, enabled: true } as Link

describe('link store', () => {
  it("persists only the links (and whose they are) under 'link-storage'", () => {
    useLinkStore.getState().setLinks([link], 'user-1')
    useLinkStore.getState().setError('Failed to update link')
    const stored = JSON.parse(localStorage.getItem(linkStorageKey) ?? 'null') as {
      state: Record<string, unknown>
    }
    expect(stored.state).toEqual({ links: [link], ownerId: 'user-1' })
    useLinkStore.getState().clear()
  })

  it('reads the persisted links back on rehydration', async () => {
    localStorage.setItem(
      linkStorageKey,
      JSON.stringify({ state: { links: [link], ownerId: 'user-1' }, version: 0 }),
    )
    await useLinkStore.persist.rehydrate()
    expect(useLinkStore.getState().links).toEqual([link])
    expect(useLinkStore.getState().ownerId).toBe('user-1')
    useLinkStore.getState().replaceLink({ ...link, favorite: true })
    expect(useLinkStore.getState().links[0]?.favorite).toBe(true)
    useLinkStore.getState().removeLink('l1')
    expect(useLinkStore.getState().links).toEqual([])
  })
})
