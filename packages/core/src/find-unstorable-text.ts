/** Why a piece of input cannot be taken as it is (docs/api.md#unstorable-input). */
export type UnstorableTextReason = 'NUL' | 'LONE_SURROGATE' | 'TOO_DEEP'

/** The first problem found in a value: where it is (`a.b.0`, empty for the value itself) and why. */
export type UnstorableText = { path: string; reason: UnstorableTextReason }

/**
 * How deeply a JSON body may nest. Our deepest legitimate body (a JSON-RPC call with state
 * overrides, an EIP-712 message) stays under 10 levels; Postgres and recursive code downstream
 * have their own, far less friendly, limits (jsonb's "stack depth limit exceeded" is a 500).
 */
export const maxInputDepth = 32

// A UTF-16 surrogate without its partner: JSON's "\ud800" escape makes one, and it has no UTF-8
// form (drivers write U+FFFD instead, so what is stored would not be what was sent).
const loneSurrogatePattern = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Whether a string can be stored in a Postgres `text` or `jsonb` column as it is: no U+0000
 * (Postgres text cannot hold it; the driver's error would be a 500) and no lone surrogate.
 * Undefined when it can, else the reason. Never throws.
 */
export function findUnstorableCharacter(text: string): UnstorableTextReason | undefined {
  if (text.includes('\u0000')) return 'NUL'
  if (loneSurrogatePattern.test(text)) return 'LONE_SURROGATE'
  return undefined
}

/**
 * Finds the first string (value or object key) in a parsed JSON value that Postgres cannot store
 * (`findUnstorableCharacter`), or a nesting deeper than `maxInputDepth`. Undefined when the whole
 * value is fine. The walk stops at that depth, so its recursion is bounded whatever the input.
 * Never throws.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  return findIn(value, 0)
}

function findIn(value: unknown, depth: number): UnstorableText | undefined {
  if (typeof value === 'string') {
    const reason = findUnstorableCharacter(value)
    return reason === undefined ? undefined : { path: '', reason }
  }
  if (typeof value !== 'object' || value === null) return undefined
  if (depth >= maxInputDepth) return { path: '', reason: 'TOO_DEEP' }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value)
  for (const [key, item] of entries) {
    const keyReason = Array.isArray(value) ? undefined : findUnstorableCharacter(key)
    if (keyReason !== undefined) return { path: printableKey(key), reason: keyReason }
    const found = findIn(item, depth + 1)
    if (found !== undefined) {
      return {
        path: found.path === '' ? printableKey(key) : `${printableKey(key)}.${found.path}`,
        reason: found.reason,
      }
    }
  }
  return undefined
}

/** A key as it may be shown in a message: its unstorable characters replaced, at most 64 characters. */
function printableKey(key: string): string {
  return key
    .replaceAll('\u0000', '\\u0000')
    .replace(new RegExp(loneSurrogatePattern, 'g'), '\\uFFFD')
    .slice(0, 64)
}

/** The sentence a refusal shows for `reason`. */
export function describeUnstorableText(reason: UnstorableTextReason): string {
  if (reason === 'NUL') return 'contains a NUL character (U+0000), which is not accepted'
  if (reason === 'LONE_SURROGATE') return 'contains text that is not valid Unicode (a lone surrogate)'
  return `nests deeper than ${maxInputDepth} levels`
}
