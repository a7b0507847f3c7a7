import { type PublicConfig, publicConfigResponseSchema } from '@quicklinks/core/api/config'
import { type ApiClient, api } from './api-client'

/**
 * The server's public settings (GET /api/config, docs/api.md#config): the routing provider and the
 * WalletConnect project id come from the server at run time, never from the bundle, so one build
 * serves a devnet and any production setup alike.
 */

/**
 * GET /api/config. Rejects with the client's AppError when the call fails, or an AppError coded
 * INTERNAL when the answer is not the settings' shape.
 */
export async function fetchPublicConfig(client: ApiClient = api): Promise<PublicConfig> {
  const body = await client.request('/api/config', publicConfigResponseSchema, {
    fallbackMessage: 'Failed to load settings',
  })
  return body.data
}

/** Resolves with the server's public settings; see `createPublicConfigSource`. */
export type PublicConfigSource = () => Promise<PublicConfig>

/**
 * One shared answer of GET /api/config: concurrent and later callers share the first request's
 * promise. A failed request is not kept, so the next caller asks again.
 */
export function createPublicConfigSource(client: ApiClient = api): PublicConfigSource {
  let pending: Promise<PublicConfig> | undefined
  return () => {
    if (pending === undefined) {
      const request = fetchPublicConfig(client)
      pending = request
      request.catch(() => {
        if (pending === request) pending = undefined
      })
    }
    return pending
  }
}

/** The app's public settings: fetched once per page load, by whoever needs them first. */
export const getPublicConfig: PublicConfigSource = createPublicConfigSource()
