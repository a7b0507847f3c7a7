import type { RoutingToken } from '@quicklinks/core/api/routing'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import { formatTokenAmount, parseScaledDecimal } from './pay-amount'
import type { PayLinkSummary } from './pay-link-summary'
import type { RouteInput } from './route-builder'

/**
 * An amount the payer cannot change (docs/product.md#paying-an-invoice-or-an-amount-link): what an
 * invoice still asks for (`amountDue`) or a link's own `amount`, a decimal string in the link's
 * token. The route asks for it as exact output (`toAmount`), so the receiver gets at least this.
 */
export type FixedAmount = {
  /** Decimal text in the link's token, as the API wrote it ("12.5"). */
  text: string
  /** The invoice paid, sent as the route's invoiceId; null for a link with an amount. */
  invoiceId: string | null
  /** The link token's decimals when known (an invoice names them); else the catalogue's. */
  decimals?: number | undefined
}

/** The fixed amount in the token's smallest unit, or undefined while the decimals are unknown. */
export function getFixedAmountUnits(fixed: FixedAmount, decimals: number | undefined): bigint | undefined {
  const known = fixed.decimals ?? decimals
  if (known === undefined) return undefined
  const units = parseScaledDecimal(fixed.text, known)
  return units === undefined || units <= 0n ? undefined : units
}

/** The catalogue's entry of the link's own token (its decimals and symbol), when listed. */
export function findLinkToken(
  tokens: readonly RoutingToken[],
  link: PayLinkSummary,
): RoutingToken | undefined {
  return tokens.find(
    (token) =>
      token.chainId === link.chain_id &&
      link.token_address !== null &&
      isSameTokenAddress(token.address, link.token_address),
  )
}

/**
 * A fixed amount in the link token's units once its decimals are known (the invoice's, or the
 * catalogue's), the token it is in, and its text ("12.5 USDC"; empty while unknown).
 */
export function describeFixedAmount(
  fixed: FixedAmount | undefined,
  link: PayLinkSummary,
  linkToken: RoutingToken | undefined,
): { units: bigint | undefined; token: { symbol: string; decimals: number }; text: string } {
  const decimals = fixed?.decimals ?? linkToken?.decimals
  const units = fixed === undefined ? undefined : getFixedAmountUnits(fixed, decimals)
  const token = {
    symbol: link.token_name.length > 0 ? link.token_name : (linkToken?.symbol ?? ''),
    decimals: decimals ?? 0,
  }
  return {
    units,
    token,
    text: units === undefined ? '' : `${formatTokenAmount(units, token.decimals)} ${token.symbol}`,
  }
}

/**
 * The exact-output route request paying `link` the fixed `toAmount` from `token`, or null while
 * the wallet or the amount is unknown (docs/api.md#route-request: toAmount, invoiceId).
 */
export function buildFixedRouteInput(options: {
  link: PayLinkSummary
  token: RoutingToken
  address: string | undefined
  toAmount: bigint | undefined
  invoiceId: string | null
}): RouteInput | null {
  const { link, token, address, toAmount, invoiceId } = options
  if (address === undefined || toAmount === undefined || link.token_address === null) return null
  return {
    fromChain: token.chainId,
    toChain: link.chain_id,
    fromToken: token.address,
    toToken: link.token_address,
    toAmount,
    fromAddress: address,
    toAddress: link.receiver_address,
    ...(link.id === null ? {} : { linkId: link.id }),
    ...(invoiceId === null ? {} : { invoiceId }),
  }
}

/**
 * What a ready exact-output route asks the payer to send, and the extra it includes over the amount
 * due to cover price movement (null when it names none).
 */
export function readFixedQuote(estimate: { fromAmount: string; expectedExcess?: string | undefined }): {
  fromAmount: bigint | undefined
  excess: bigint | null
} {
  const fromAmount = /^\d+$/.test(estimate.fromAmount) ? BigInt(estimate.fromAmount) : undefined
  const excess =
    estimate.expectedExcess !== undefined && /^\d+$/.test(estimate.expectedExcess)
      ? BigInt(estimate.expectedExcess)
      : null
  return { fromAmount, excess: excess === 0n ? null : excess }
}
