import { createSignerClient, type SignerClient } from '@quicklinks/wallet/signer-client'

/**
 * The SDK's signer client as a Node caller uses it against a running signer at `baseUrl` (the
 * standalone signer, or the app server that mounts it): the CSRF cookie from GET /health, sent back
 * with the X-CSRF-Token header on every request, as the page's API wrapper does.
 */
export async function createTestSignerClient(baseUrl: string): Promise<SignerClient> {
  const health = await fetch(`${baseUrl}/health`)
  const token = /csrf_token=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1]
  if (token === undefined) throw new Error('no CSRF cookie from /health')
  return createSignerClient({
    baseUrl,
    getHeaders: () => ({ 'x-csrf-token': token, cookie: `csrf_token=${token}` }),
  })
}
