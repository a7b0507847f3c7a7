import { z } from 'zod/mini'

/** The longest `next` path a sign-in mail carries. */
const maxNextLength = 512

/**
 * Whether `value` is a path on the app's own origin: it starts with one `/` (not `//` or `/\`,
 * which a browser reads as another host) and holds no control character. The web app checks it
 * again before it navigates (getSignedInTarget).
 */
function isSameOriginPath(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  return /^\/(?![/\\])/.test(value) && !/[\u0000-\u001f\u007f]/.test(value)
}

/**
 * `redirectParams` of a magic-link sign-in (docs/signer.md#signup-auth): the query string the mail's
 * link carries after its own `bundle`, `orgId` and `isSignup`. Anyone may ask the signer to mail a
 * contact, so what the link carries is an allowlist, not the caller's choice: only `next`, once,
 * a same-origin path of at most 512 characters (where the app goes after the sign-in). Any other
 * name, a repeated name or a bad value is refused (422 naming `redirectParams`), never mailed.
 */
export const redirectParamsSchema = z.string().check(
  z.maxLength(2048),
  z.superRefine((value: string, context) => {
    const names = new Set<string>()
    for (const [name, parameter] of new URLSearchParams(value)) {
      if (name !== 'next') {
        context.addIssue({
          code: 'custom',
          message: `${JSON.stringify(name.slice(0, 40))} is not allowed; only next`,
        })
        return
      }
      if (names.has(name)) {
        context.addIssue({ code: 'custom', message: 'next may appear once' })
        return
      }
      names.add(name)
      if (parameter.length > maxNextLength || !isSameOriginPath(parameter)) {
        context.addIssue({
          code: 'custom',
          message: `next must be a path on this site starting with / (at most ${maxNextLength} characters)`,
        })
        return
      }
    }
  }),
)
