import { describe, expect, it } from 'vitest'
import { buildSlug, getSlugProblem, isReservedSlug } from './slug.ts'

describe('buildSlug', () => {
  it('lowercases and turns each whitespace run into one hyphen', () => {
    expect(buildSlug('  My Personal   Payment\tPage ')).toBe('my-personal-payment-page')
  })
  it('keeps existing hyphens and unicode letters', () => {
    expect(buildSlug('Café Zürich-2')).toBe('café-zürich-2')
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
  it('rejects characters that would break the URL path', () => {
    expect(getSlugProblem('a/b/c')).toMatch(/cannot contain/)
    expect(getSlugProblem('what?')).toMatch(/cannot contain/)
  })
})
