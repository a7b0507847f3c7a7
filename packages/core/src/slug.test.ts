import { describe, expect, it } from 'vitest'
import { buildSlug, getSlugProblem, isReservedSlug, normaliseName, normaliseText } from './slug.ts'

describe('buildSlug', () => {
  it('lowercases and turns each whitespace run into one hyphen', () => {
    expect(buildSlug('  My Personal   Payment\tPage ')).toBe('my-personal-payment-page')
  })
  it('reduces accented letters to plain ones and keeps hyphens', () => {
    expect(buildSlug('Café Zürich-2')).toBe('cafe-zurich-2')
  })
  it('folds compatibility forms and drops invisible characters, so look-alikes give one slug', () => {
    // Full-width letters, a ligature, a zero-width space, a right-to-left override and a soft hyphen.
    expect(buildSlug('Ｃｏｆｆｅｅ ﬁnd')).toBe('coffee-find')
    expect(buildSlug('alice\u200b-shop')).toBe('alice-shop')
    expect(buildSlug('ali\u202ece\u00ad')).toBe('alice')
  })
  it('turns dots and underscores into hyphens and drops other punctuation', () => {
    expect(buildSlug("Bob's  Café!")).toBe('bobs-cafe')
    expect(buildSlug('my_shop.v2')).toBe('my-shop-v2')
    expect(buildSlug('a/b?c#d')).toBe('abcd')
  })
})

describe('getSlugProblem', () => {
  it('accepts a normal slug', () => {
    expect(getSlugProblem('coffee-fund')).toBeUndefined()
  })
  it('rejects slugs shorter than 3 characters', () => {
    expect(getSlugProblem('ab')).toMatch(/at least 3/)
  })
  it('rejects app route names so /{slug} never shadows a screen', () => {
    for (const route of [
      'login',
      'dashboard',
      'settings',
      'onboarding',
      'pay',
      'api',
      'health',
      'username',
    ]) {
      expect(getSlugProblem(route)).toMatch(/reserved/)
      expect(isReservedSlug(route.toUpperCase())).toBe(true)
    }
  })
  it('names the character a confusable alias cannot use', () => {
    // "аlice" with a Cyrillic а (U+0430) would pass for "alice".
    const slug = buildSlug('\u0430lice')
    expect(getSlugProblem(slug)).toBe(
      'The link name cannot contain "а" (U+0430). Use letters a to z, digits and hyphens.',
    )
    expect(getSlugProblem('a/b')).toMatch(/cannot contain "\/"/)
  })
})

describe('normaliseName and normaliseText', () => {
  it('strip invisible and direction-changing characters', () => {
    expect(normaliseName(' Ali\u200dce\ufeff ')).toBe('Alice')
    expect(normaliseText('Thanks\u202e!')).toBe('Thanks!')
  })
  it('keep emoji whole in text', () => {
    expect(normaliseText('Family 👨\u200d👩\u200d👧 ❤\ufe0f')).toBe('Family 👨\u200d👩\u200d👧 ❤\ufe0f')
  })
})
