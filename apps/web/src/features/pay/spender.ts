import type { ChainContracts, RouteResult } from '@quicklinks/core/api/routing'

/**
 * The spender (docs/product.md#approval-and-spender): the API's own `spender` (null for a native
 * payment), else the transaction request's `to` (or target), else the routing provider's router,
 * multicall or coral multicall contract on the source chain, from the chain record
 * (docs/api.md#chain-object). Null when none is known ('Missing Squid spender address for this
 * route.').
 */
export function selectSpender(
  route: Pick<RouteResult['route'], 'spender' | 'transactionRequest'>,
  sourceChainContracts: ChainContracts = {},
): `0x${string}` | null {
  const candidates = [
    route.spender,
    route.transactionRequest.to,
    sourceChainContracts.router,
    sourceChainContracts.multicall,
    sourceChainContracts.coralMulticall,
  ]
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && /^0x[0-9a-fA-F]{40}$/.test(candidate))
      return candidate as `0x${string}`
  }
  return null
}
