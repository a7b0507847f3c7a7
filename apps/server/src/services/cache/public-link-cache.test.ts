import { describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.ts'
import { createPublicLinkCache } from './public-link-cache.ts'

function buildLink(slug: string): Link {
  return { id: `id-${slug}`, aliasSlug: slug, alias: slug, enabled: true } as Link
}

/** A load the test settles by hand, counting its calls. */
function createLoader(answer: (slug: string) => Link | undefined) {
  const calls: string[] = []
  return {
    calls,
    load: (slug: string) => () => {
      calls.push(slug)
      return Promise.resolve(answer(slug))
    },
  }
}

function createDeferred<T>() {
  let resolve: (value: T) => void = () => undefined
  const promise = new Promise<T>((settle) => {
    resolve = settle
  })
  return { promise, resolve }
}

describe('createPublicLinkCache', () => {
  it('serves a hit from memory, ignoring case, until its TTL passes', async () => {
    let now = 0
    const cache = createPublicLinkCache({ ttlMs: 1000, now: () => now })
    const loader = createLoader(buildLink)
    expect(await cache.get('shop', loader.load('shop'))).toMatchObject({ aliasSlug: 'shop' })
    expect(await cache.get('SHOP', loader.load('SHOP'))).toMatchObject({ aliasSlug: 'shop' })
    expect(loader.calls).toEqual(['shop'])
    now = 1001
    await cache.get('shop', loader.load('shop'))
    expect(loader.calls).toEqual(['shop', 'shop'])
  })

  it('remembers a miss only for the short miss TTL', async () => {
    let now = 0
    const cache = createPublicLinkCache({ ttlMs: 60_000, missTtlMs: 100, now: () => now })
    const loader = createLoader(() => undefined)
    expect(await cache.get('ghost', loader.load('ghost'))).toBeUndefined()
    expect(await cache.get('ghost', loader.load('ghost'))).toBeUndefined()
    expect(loader.calls).toEqual(['ghost'])
    now = 101
    await cache.get('ghost', loader.load('ghost'))
    expect(loader.calls).toEqual(['ghost', 'ghost'])
  })

  it('holds at most maxEntries slugs, dropping the least recently read', async () => {
    const cache = createPublicLinkCache({ maxEntries: 2 })
    const loader = createLoader(buildLink)
    await cache.get('a', loader.load('a'))
    await cache.get('b', loader.load('b'))
    await cache.get('a', loader.load('a'))
    await cache.get('c', loader.load('c'))
    await cache.get('a', loader.load('a'))
    await cache.get('b', loader.load('b'))
    expect(loader.calls).toEqual(['a', 'b', 'c', 'b'])
  })

  it('shares one load between concurrent readers of a slug', async () => {
    const cache = createPublicLinkCache()
    const loader = createLoader(buildLink)
    const answers = await Promise.all([1, 2, 3].map(() => cache.get('shop', loader.load('shop'))))
    expect(answers.map((link) => link?.aliasSlug)).toEqual(['shop', 'shop', 'shop'])
    expect(loader.calls).toEqual(['shop'])
  })

  it('after invalidate, reads load again, and a load that overlapped the write is not kept', async () => {
    const cache = createPublicLinkCache()
    const loader = createLoader(buildLink)
    await cache.get('shop', loader.load('shop'))
    // A read starts before the write and sees the row as it was before it.
    const slowLoad = createDeferred<Link | undefined>()
    cache.invalidate(['shop'])
    const racing = cache.get('shop', () => slowLoad.promise)
    cache.invalidate(['SHOP'])
    // A reader after the write never joins the racing load: it loads itself.
    expect(await cache.get('shop', () => Promise.resolve(undefined))).toBeUndefined()
    slowLoad.resolve(buildLink('shop'))
    expect(await racing).toMatchObject({ aliasSlug: 'shop' })
    // The racing load's stale row was not stored over the newer miss.
    expect(await cache.get('shop', loader.load('shop'))).toBeUndefined()
  })

  it('keeps nothing while disabled, and forgets everything when enabled again', async () => {
    const cache = createPublicLinkCache()
    const loader = createLoader(buildLink)
    await cache.get('shop', loader.load('shop'))
    cache.setEnabled(false)
    await cache.get('shop', loader.load('shop'))
    await cache.get('shop', loader.load('shop'))
    cache.setEnabled(true)
    await cache.get('shop', loader.load('shop'))
    await cache.get('shop', loader.load('shop'))
    expect(loader.calls).toEqual(['shop', 'shop', 'shop', 'shop'])
  })

  it('a failed load is not kept: the next read tries again', async () => {
    const cache = createPublicLinkCache()
    await expect(cache.get('shop', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    )
    const loader = createLoader(buildLink)
    expect(await cache.get('shop', loader.load('shop'))).toMatchObject({ aliasSlug: 'shop' })
  })
})
