import createClient, { type Client } from 'openapi-fetch'
import type { components, paths } from './schema.ts'

export type { components, paths }

/** A Quick Links API client whose paths, bodies and answers are typed from the OpenAPI document. */
export type QuickLinksClient = Client<paths>

export type QuickLinksClientOptions = {
  /** The instance's origin, e.g. https://pay.example.com (no trailing /api). */
  baseUrl: string
  /** An API key from Settings → API keys (`qlk_…`); its scopes decide which routes answer. */
  apiKey: string
  /** Another fetch (a proxy agent, a test double); the global one by default. */
  fetch?: typeof fetch
}

/**
 * A typed client for another TypeScript service (docs/api.md#typed-client): openapi-fetch over
 * the types openapi-typescript generated from the server's OpenAPI document, sending the key as
 * `Authorization: Bearer` on every request (no cookies, no CSRF token).
 *
 * @example
 * const client = createQuickLinksClient({ baseUrl: 'https://pay.example.com', apiKey: process.env.QL_KEY! })
 * const { data, error } = await client.GET('/api/links')
 */
export function createQuickLinksClient(options: QuickLinksClientOptions): QuickLinksClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  })
}
