import type { ApiClient } from '../../lib/api-client'
import { createPublicConfigSource, fetchPublicConfig, getPublicConfig } from '../../lib/public-config'

/**
 * The routing provider's name comes from the server (GET /api/config), never from the bundle: one
 * build serves a devnet (`local`) and production (`squid`) alike. The web calls
 * /api/{provider}/chains, /tokens and /route with it.
 */

/**
 * GET /api/config: the configured routing provider's name. Rejects with the client's AppError when
 * the call fails, or an AppError coded INTERNAL when the answer names no provider.
 */
export async function fetchRoutingProvider(client?: ApiClient): Promise<string> {
  return (await fetchPublicConfig(client)).routingProvider
}

/** Resolves with the routing provider's name; see `createRoutingProviderSource`. */
export type RoutingProviderSource = () => Promise<string>

/**
 * One shared answer of GET /api/config: concurrent and later callers share the first request's
 * promise. A failed request is not kept, so the next caller asks again.
 */
export function createRoutingProviderSource(client?: ApiClient): RoutingProviderSource {
  const getConfig = createPublicConfigSource(client)
  return async () => (await getConfig()).routingProvider
}

/** The app's routing provider: from the page load's one GET /api/config, shared with the pay modal. */
export const getRoutingProvider: RoutingProviderSource = async () => (await getPublicConfig()).routingProvider
