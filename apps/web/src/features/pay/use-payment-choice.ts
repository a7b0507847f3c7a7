import type { RoutingChain, RoutingToken } from '@quicklinks/core/api/routing'
import { isSameTokenAddress } from '@quicklinks/core/native-token-address'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { findNativeUsdPrice, selectOfferedTokens } from '../routing/catalogue'
import { useTokens } from '../routing/use-catalogue'
import { parseAmountText } from './pay-amount'
import type { AmountEntry } from './pay-modal-state'
import { getTokenBalance, getTotalUsdValue, walletBalancesQueryOptions } from './wallet-balances'

export type PaymentChoiceInput = {
  /** The offered chains, for the balances endpoint's network name. */
  chains: readonly RoutingChain[]
  /** The chain whose tokens and balances the current step shows; null on a step with none. */
  chainId: number | null
  /** The paying wallet; undefined while none is connected. */
  address: string | undefined
  /** False while the balances must not be read (the pay modal closed, its wallet not connected). */
  isEnabled: boolean
}

/**
 * The data the pay modal and the Self Swap share while a payer picks what to pay with: the
 * catalogue's offered tokens on one chain, the wallet's balances there, their USD total, and the
 * amount typed for a token. One hook, so both flows list, price and parse alike.
 */
export function usePaymentChoice({ chains, chainId, address, isEnabled }: PaymentChoiceInput) {
  const tokensQuery = useTokens()
  const allTokens = useMemo(() => tokensQuery.data?.items ?? [], [tokensQuery.data])
  const chainTokens = useMemo(
    () => selectOfferedTokens(allTokens.filter((token) => token.chainId === chainId)),
    [allTokens, chainId],
  )
  const balancesQuery = useQuery({
    ...walletBalancesQueryOptions(
      { chainId: chainId ?? 0, networkName: chains.find((chain) => chain.chainId === chainId)?.networkName },
      address ?? '',
    ),
    enabled: isEnabled && chainId !== null && address !== undefined,
  })
  const balances = balancesQuery.data

  /** The wallet's balance of `token`; null until loaded, or for a token of another chain. */
  const getBalance = (token: RoutingToken): bigint | null =>
    balances === undefined || token.chainId !== chainId ? null : getTokenBalance(balances, token.address)
  /** The USD value of the wallet's holdings of `tokens`; null until the balances load. */
  const getTotalUsd = (tokens: readonly RoutingToken[]): number | null => getTotalUsdValue(balances, tokens)
  const getNativeUsdPrice = (chain: RoutingChain): number | null =>
    findNativeUsdPrice(allTokens, chain.chainId)
  /** The catalogue's current entry of a chosen token (its USD price may have changed since). */
  const findCurrentToken = (token: RoutingToken): RoutingToken =>
    allTokens.find(
      (candidate) =>
        candidate.chainId === token.chainId && isSameTokenAddress(candidate.address, token.address),
    ) ?? token
  /** The typed amount in `token`'s smallest unit; USD counts as token units while the token has no price. */
  const parseAmount = (entry: AmountEntry, token: RoutingToken): bigint | undefined => {
    const usdPrice = token.usdPrice ?? null
    const unit = entry.unit === 'USD' && !(usdPrice !== null && usdPrice > 0) ? 'TOKEN' : entry.unit
    return parseAmountText(entry.text, unit, { decimals: token.decimals, usdPrice })
  }

  return {
    tokensQuery,
    allTokens,
    chainTokens,
    getBalance,
    getTotalUsd,
    getNativeUsdPrice,
    findCurrentToken,
    parseAmount,
  }
}
