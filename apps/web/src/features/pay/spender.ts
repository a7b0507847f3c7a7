import type { RouteResult } from './route-builder'

/**
 * The spender (docs/product.md#approval-and-spender): the transaction request's to (or target), else the
 * route's router, multicall or coral multicall contract. The API's own `spender` (null for a native payment)
 * comes first. Null when none is known ('Missing Squid spender address for this route.').
 */
export function selectSpender(
  route: Pick<RouteResult, 'spender' | 'txReq' | 'contracts'>,
): `0x${string}` | null {
  const candidates = [
    route.spender,
    route.txReq.to,
    route.contracts.router,
    route.contracts.multicall,
    route.contracts.coralMulticall,
  ]
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && /^0x[0-9a-fA-F]{40}$/.test(candidate))
      return candidate as `0x${string}`
  }
  return null
}
