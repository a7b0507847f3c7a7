const apiPrefixes = ['/api', '/signer', '/health', '/ready']

/**
 * Whether a URL belongs to the server's own namespaces (/api, /signer, /health, /ready): those answer
 * JSON and are rate-limited; every other path belongs to the web app.
 */
export function isApiPath(url: string): boolean {
  // Asked on every request: compares in place instead of splitting off the query string.
  for (const prefix of apiPrefixes) {
    if (!url.startsWith(prefix)) continue
    const next = url.charAt(prefix.length)
    if (next === '' || next === '/' || next === '?') return true
  }
  return false
}
