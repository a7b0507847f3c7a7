import type { RouteResult, RoutingToken } from '@quicklinks/core/api/routing'
import { useQuery } from '@tanstack/react-query'
import type { Address, Hash } from 'viem'
import { type Config, useConfig } from 'wagmi'
import {
  type SendTokenPaymentOptions,
  sendBatchedPayment,
  sendPermitPayment,
  type TokenPaymentMethod,
  tokenPaymentMethodQueryOptions,
} from './token-payment'

/**
 * The token payment method of the connected wallet on the source chain (token-payment.ts): null
 * while it is read, for a native payment, and before the route is ready.
 */
export function useTokenPaymentMethod(options: {
  chainId: number
  payer: Address | undefined
  token: Pick<RoutingToken, 'address' | 'permit'>
  route: Pick<RouteResult['route'], 'acceptsPermit'> | null
  isEnabled: boolean
  connectorId: string | undefined
}): TokenPaymentMethod | null {
  const config = useConfig()
  const { payer, route } = options
  const query = useQuery({
    ...tokenPaymentMethodQueryOptions(
      config,
      {
        chainId: options.chainId,
        payer: payer ?? '0x0000000000000000000000000000000000000000',
        token: options.token,
        route: route ?? {},
      },
      options.connectorId,
    ),
    enabled: options.isEnabled && payer !== undefined && route !== null,
  })
  return query.data ?? null
}

/** Sends a token payment whose approval travels with it: one batch, or a permit and one transaction. */
export function sendWithCarriedApproval(
  config: Config,
  method: TokenPaymentMethod,
  options: SendTokenPaymentOptions,
): Promise<Hash> {
  if (method === 'batch') return sendBatchedPayment(config, options)
  if (method === 'permit') return sendPermitPayment(config, options)
  throw new Error('This payment needs an approval first.')
}

/** The confirm step's line for a carried approval (docs/product.md#one-confirmation). */
export function describeCarriedApproval(method: TokenPaymentMethod): string | null {
  switch (method) {
    case 'batch':
      return 'Confirm & Pay approves and pays in one confirmation.'
    case 'permit':
      return 'Confirm & Pay signs a permit instead: no approval transaction.'
    case 'approve':
      return null
    default: {
      const unknownMethod: never = method
      return unknownMethod
    }
  }
}
