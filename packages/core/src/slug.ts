/**
 * Public slugs (docs/product.md#slugs): the slug is the alias lowercased with every whitespace run
 * replaced by one hyphen. App route names can never be slugs, so `/{slug}` can redirect to `/pay/{slug}`.
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

// Characters that render as nothing (zero-width spaces and joiners, bidi controls, soft hyphens,
// fillers, variation selectors, tags): in a name they let one link pass for another.
const invisiblePattern =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed mark is matched on its own, on purpose.
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu
// In free text the zero-width joiner and the emoji variation selector keep emoji whole; the rest goes.
const invisibleInTextPattern =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed mark is matched on its own, on purpose.
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0E\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu

/** A display name (alias) as stored: NFKC-normalised, without invisible characters, trimmed. */
export function normaliseName(name: string): string {
  return name.normalize('NFKC').replace(invisiblePattern, '').trim()
}

/** Free text (a link's message): NFKC-normalised, without invisible or direction-changing characters. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').replace(invisibleInTextPattern, '').trim()
}

/**
 * Alias → slug: the base rule (lower-cased, whitespace runs to one hyphen) on a name reduced to plain
 * letters first, so no slug can look like another: NFKC, invisible characters dropped, accents
 * dropped (café → cafe), dots and underscores to hyphens, other ASCII punctuation dropped, hyphen
 * runs collapsed. Letters outside a-z (Cyrillic а, Greek ο…) stay, and `getSlugProblem` names them.
 */
export function buildSlug(alias: string): string {
  return normaliseName(alias)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\s._]+/g, '-')
    .replace(/[!-,/:-@[-^`{-~]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
}

/** What a slug is made of: lower-case ASCII letters, digits and single hyphens. */
export const slugPattern = /^[a-z0-9-]+$/

/** Why a slug cannot be used, or undefined when it can. */
export function getSlugProblem(slug: string): string | undefined {
  if (slug.length < 3) return 'The link name must be at least 3 characters.'
  if (slug.length > 64) return 'The link name must be at most 64 characters.'
  const foreign = [...slug].find((character) => !/[a-z0-9-]/.test(character))
  if (foreign !== undefined) {
    const codePoint = (foreign.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')
    return `The link name cannot contain "${foreign}" (U+${codePoint}). Use letters a to z, digits and hyphens.`
  }
  if (reservedSlugs.has(slug)) return `"${slug}" is reserved. Choose another name.`
  return undefined
}

export function isReservedSlug(slug: string): boolean {
  return reservedSlugs.has(slug.toLowerCase())
}
