/**
 * The magic link of a sign-in mail: `${publicOrigin}/login?bundle=…&orgId=…` (plus `isSignup=true`
 * when the contact had no account when the mail was sent, so the app can show onboarding),
 * followed by the caller's `redirectParams` (a query string), which cannot override those. The
 * `bundle` parameter keeps the auth-return name (docs/product.md#auth-return-params) but carries the one-time link token, which the
 * SDK trades for a credential bundle at `magic-link` when the link is opened. Pure.
 */
export function buildMagicLink(input: {
  publicOrigin: string
  token: string
  organizationId: string
  redirectParams?: string
  isSignup?: boolean
}): string {
  const url = new URL('/login', input.publicOrigin)
  url.searchParams.set('bundle', input.token)
  url.searchParams.set('orgId', input.organizationId)
  if (input.isSignup === true) url.searchParams.set('isSignup', 'true')
  const reservedNames = new Set(['bundle', 'orgId', 'isSignup'])
  for (const [name, value] of new URLSearchParams(input.redirectParams ?? '')) {
    if (!reservedNames.has(name)) url.searchParams.append(name, value)
  }
  return url.toString()
}
