import type { DepositResponse } from '@quicklinks/core/api/deposits'
import { buildEip681Uri } from '@quicklinks/core/build-eip681-uri'
import { isNativeTokenAddress } from '@quicklinks/core/native-token-address'
import { getAddress } from 'viem'
import { scaleAmount } from '../../tokens/scale-amount.ts'
import type { RoutingToken } from '../route/routing-provider.ts'
import type { DepositSetup } from './get-deposit-setup.ts'

/**
 * A token priced to another is asked for with this margin on top (basis points), so a swap's price
 * move and slippage still leave the receiver the amount; an invoice's tolerance takes the rest.
 */
const pricedMarginBasisPoints = 200n

/** The link's token as the amount is written in. */
export type DepositAmountToken = { chainId: number; address: string; symbol: string; decimals: number }

/**
 * The chains and tokens a deposit accepts, each with its EIP-681 URI: every token the routing
 * provider lists on each chain of the deposit setup. With an amount (in the link's token), a token
 * of the same symbol asks for it scaled to its decimals; another token asks for its USD-price
 * equivalent plus 2 %; without prices, or without an amount, the URI names no amount. Pure.
 */
export function listDepositChains(options: {
  setup: Pick<DepositSetup, 'chains'>
  tokens: readonly RoutingToken[]
  address: `0x${string}`
  amountUnits: bigint | null
  linkToken: DepositAmountToken
}): DepositResponse['chains'] {
  const { setup, tokens, address, amountUnits, linkToken } = options
  const linkPrice = tokens.find(
    (token) =>
      token.chainId === linkToken.chainId && token.address.toLowerCase() === linkToken.address.toLowerCase(),
  )?.usdPrice
  return setup.chains.map((chain) => ({
    chainId: chain.chainId,
    name: chain.name,
    tokens: tokens
      .filter((token) => token.chainId === chain.chainId)
      .map((token) => {
        const units =
          amountUnits === null ? null : priceAmount(amountUnits, linkToken, token, linkPrice ?? null)
        const isNative = isNativeTokenAddress(token.address)
        return {
          address: getAddress(token.address),
          symbol: token.symbol,
          decimals: token.decimals,
          amountUnits: units === null ? null : units.toString(),
          uri: buildEip681Uri({
            chainId: chain.chainId,
            to: address,
            token: isNative ? undefined : getAddress(token.address),
            amountUnits: units ?? undefined,
          }),
        }
      }),
  }))
}

/** `amountUnits` of the link's token in `token`: scaled for the same symbol, priced otherwise, null without prices. */
function priceAmount(
  amountUnits: bigint,
  linkToken: DepositAmountToken,
  token: RoutingToken,
  linkPrice: number | null,
): bigint | null {
  if (token.symbol === linkToken.symbol) return scaleAmount(amountUnits, linkToken.decimals, token.decimals)
  if (linkPrice === null || !token.usdPrice) return null
  // Prices are floats; a micro-dollar grid keeps the arithmetic in integers after one rounding.
  const microUsd = (amountUnits * BigInt(Math.round(linkPrice * 1e6))) / 10n ** BigInt(linkToken.decimals)
  const tokenMicroPrice = BigInt(Math.round(token.usdPrice * 1e6))
  if (tokenMicroPrice === 0n) return null
  const units = (microUsd * 10n ** BigInt(token.decimals)) / tokenMicroPrice
  return (units * (10_000n + pricedMarginBasisPoints) + 9_999n) / 10_000n
}
