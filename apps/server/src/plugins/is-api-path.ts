const apiPrefixes = ['/api', '/signer', '/health', '/ready']

/**
 * Whether a URL belongs to the server's own namespaces (/api, /signer, /health, /ready): those answer
 * JSON and are rate-limited; every other path belongs to the web app.
 */
export function isApiPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? ''
  return apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}
