/**
 * The magic link of a sign-in mail: `${publicOrigin}/login?bundle=…&orgId=…` (plus `isSignup=true`
 * when this mail created the account, so the app can show onboarding), followed by the caller's
 * `redirectParams` (a query string), which cannot override those. Pure.
 */
export function buildMagicLink(input: {
  publicOrigin: string
  credentialBundle: string
  organizationId: string
  redirectParams?: string
  isSignup?: boolean
}): string {
  const url = new URL('/login', input.publicOrigin)
  url.searchParams.set('bundle', input.credentialBundle)
  url.searchParams.set('orgId', input.organizationId)
  if (input.isSignup === true) url.searchParams.set('isSignup', 'true')
  const reservedNames = new Set(['bundle', 'orgId', 'isSignup'])
  for (const [name, value] of new URLSearchParams(input.redirectParams ?? '')) {
    if (!reservedNames.has(name)) url.searchParams.append(name, value)
  }
  return url.toString()
}
