/**
 * Names to offer when `name` is taken (docs/product.md#username): the name stripped to letters, digits and
 * underscore, with the current year, '123', '_official', or month and day appended. Suggestions
 * that would break the 32-character limit are trimmed at the base; duplicates are dropped.
 */
export function buildUsernameSuggestions(name: string, now: Date = new Date()): string[] {
  const base = name.replace(/[^A-Za-z0-9_]/g, '')
  if (base.length === 0) return []
  const month = String(now.getMonth() + 1).padStart(2, '0')
  const day = String(now.getDate()).padStart(2, '0')
  const suffixes = [String(now.getFullYear()), '123', '_official', `${month}${day}`]
  const suggestions = suffixes.map((suffix) => `${base.slice(0, 32 - suffix.length)}${suffix}`)
  return [...new Set(suggestions)]
}
