import { publicConfigResponseSchema } from '@quicklinks/core/api/config'
import { type ApiClient, api } from '../../lib/api-client'

/**
 * The routing provider's name comes from the server (GET /api/config), never from the bundle: one
 * build serves a devnet (`local`) and production (`squid`) alike. The web calls
 * /api/{provider}/chains, /tokens and /route with it.
 */

/**
 * GET /api/config: the configured routing provider's name. Rejects with the client's AppError when
 * the call fails, or an AppError coded INTERNAL when the answer names no provider.
 */
export async function fetchRoutingProvider(client: ApiClient = api): Promise<string> {
  const body = await client.request('/api/config', publicConfigResponseSchema, {
    fallbackMessage: 'Failed to load settings',
  })
  return body.data.routingProvider
}

/** Resolves with the routing provider's name; see `createRoutingProviderSource`. */
export type RoutingProviderSource = () => Promise<string>

/**
 * One shared answer of GET /api/config: concurrent and later callers share the first request's
 * promise. A failed request is not kept, so the next caller asks again.
 */
export function createRoutingProviderSource(client: ApiClient = api): RoutingProviderSource {
  let pending: Promise<string> | undefined
  return () => {
    if (pending === undefined) {
      const request = fetchRoutingProvider(client)
      pending = request
      request.catch(() => {
        if (pending === request) pending = undefined
      })
    }
    return pending
  }
}

/** The app's routing provider: fetched once per page load, by whoever needs it first. */
export const getRoutingProvider: RoutingProviderSource = createRoutingProviderSource()
