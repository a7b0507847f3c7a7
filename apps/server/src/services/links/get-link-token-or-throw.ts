import type { RoutingToken } from '@quicklinks/core/api/routing'
import { AppError } from '@quicklinks/core/app-error'
import { isNativeTokenAddress, type RoutingProvider } from '../payments/route/routing-provider.ts'

/**
 * The routing provider's entry for a link's token (its symbol and decimals): amounts on a link and
 * its invoices are written in it. Throws AppError VALIDATION_FAILED naming `field` when the token
 * is no longer in the catalogue, and the provider's SERVICE_UNAVAILABLE when it cannot be read.
 */
export async function getLinkTokenOrThrow(
  provider: RoutingProvider,
  link: { chainId: number; tokenAddress: string },
  field = 'amount',
): Promise<RoutingToken> {
  const address = link.tokenAddress.toLowerCase()
  const token = (await provider.tokens({ withoutPrices: true })).find(
    (candidate) =>
      candidate.chainId === link.chainId &&
      (isNativeTokenAddress(address)
        ? isNativeTokenAddress(candidate.address)
        : candidate.address.toLowerCase() === address),
  )
  if (!token) {
    throw new AppError('VALIDATION_FAILED', {
      field,
      message: `Token ${address} on chain ${link.chainId} is not in the routing catalogue`,
      userMessage: "This link's token is no longer available, so no amount can be set in it.",
    })
  }
  return token
}
