/**
 * Public slugs. SPEC: the slug is the alias lowercased with every whitespace run replaced by
 * one hyphen. App route names can never be slugs, so `/{slug}` can redirect to `/pay/{slug}`.
 */
export const reservedSlugs: ReadonlySet<string> = new Set([
  'login',
  'dashboard',
  'settings',
  'onboarding',
  'pay',
  'api',
  'signer',
  'health',
  'dev',
  'assets',
  'username',
])

/** Alias → slug: trimmed, lowercased, whitespace runs to one hyphen. */
export function buildSlug(alias: string): string {
  return alias.trim().toLowerCase().replace(/\s+/g, '-')
}

export const slugPattern = /^[^\s/?#]+$/u

/** Why a slug cannot be used, or undefined when it can. */
export function getSlugProblem(slug: string): string | undefined {
  if (slug.length < 3) return 'The link name must be at least 3 characters.'
  if (slug.length > 64) return 'The link name must be at most 64 characters.'
  if (!slugPattern.test(slug)) return 'The link name cannot contain /, ? or #.'
  if (reservedSlugs.has(slug)) return `"${slug}" is reserved. Choose another name.`
  return undefined
}

export function isReservedSlug(slug: string): boolean {
  return reservedSlugs.has(slug.toLowerCase())
}
