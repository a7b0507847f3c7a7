import type { RoutingProvider } from '../payments/route/routing-provider.ts'
import { formatTokenAmount, parseTokenAmountOrThrow } from '../tokens/parse-token-amount.ts'
import { getLinkTokenOrThrow } from './get-link-token-or-throw.ts'

/**
 * A link's fixed amount as stored: null when the payer chooses (absent or null), else the decimal
 * string written in its shortest form ("12.50" is stored as "12.5"). Throws AppError
 * VALIDATION_FAILED naming `amount` when it has more decimals than the link's token (read from the
 * routing provider's catalogue), and the provider's SERVICE_UNAVAILABLE when that cannot be read.
 */
export async function readLinkAmountOrThrow(
  provider: RoutingProvider,
  link: { chainId: number; tokenAddress: string },
  amount: string | null | undefined,
): Promise<string | null> {
  if (amount === undefined || amount === null) return null
  const token = await getLinkTokenOrThrow(provider, link)
  return formatTokenAmount(parseTokenAmountOrThrow(amount, token), token.decimals)
}
