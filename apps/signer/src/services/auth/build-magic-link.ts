/**
 * The magic link of a sign-in mail: `${publicOrigin}/login?bundle=…&orgId=…`, followed by the
 * caller's `redirectParams` (a query string), which cannot override `bundle` or `orgId`. Pure.
 */
export function buildMagicLink(input: {
  publicOrigin: string
  credentialBundle: string
  organizationId: string
  redirectParams?: string
}): string {
  const url = new URL('/login', input.publicOrigin)
  url.searchParams.set('bundle', input.credentialBundle)
  url.searchParams.set('orgId', input.organizationId)
  for (const [name, value] of new URLSearchParams(input.redirectParams ?? '')) {
    if (name !== 'bundle' && name !== 'orgId') url.searchParams.append(name, value)
  }
  return url.toString()
}
